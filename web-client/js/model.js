// The client's copy of one game, and the event applier (protocol.md,
// "Events"). Applying a reply's events in order to a model made from the
// server's GameView gives the server's board; the state_hash check proves it.
// Pure module (no DOM): unit-tested in node.

import { stateHash } from './hash.js';

const key = (x, y) => `${x},${y}`;

// Builds a model from a GameView. The board is copied, never shared.
export function modelFromView(view) {
  const board = view.board.map((row) => row.slice());
  const selected = new Map();
  for (const [x, y] of view.selected || []) {
    // Keep every filled hidden-mode cell as -1 on the board and a selected
    // cell's colour beside it, whichever way the server showed it.
    const shown = board[y] && board[y][x] > 0 ? board[y][x] : null;
    if (shown != null) board[y][x] = -1;
    selected.set(key(x, y), shown);
  }
  return {
    gameId: view.game_id,
    mode: view.mode,
    width: view.width,
    height: view.height,
    board,
    score: view.score,
    moveCount: view.move_count,
    over: !!view.over,
    overInfo: null,
    peeks: view.peeks ?? 0,
    selected,
    lastPeek: null,
  };
}

export function cellAt(model, x, y) {
  if (y < 0 || y >= model.height || x < 0 || x >= model.width) return undefined;
  return model.board[y][x];
}

export function isSelected(model, x, y) {
  return model.selected.has(key(x, y));
}

// Colour of a selected cell, or null when the client never learnt it.
export function selectedColor(model, x, y) {
  return model.selected.get(key(x, y)) ?? null;
}

export function selectedCells(model) {
  return [...model.selected.keys()].map((k) => k.split(',').map(Number));
}

function applyFall(model, moves) {
  const values = moves.map(([x, from]) => model.board[from][x]);
  const sel = moves.map(([x, from]) => model.selected.has(key(x, from))
    ? { c: model.selected.get(key(x, from)) } : null);
  for (const [x, from] of moves) {
    model.board[from][x] = 0;
    model.selected.delete(key(x, from));
  }
  moves.forEach(([x, , to], i) => {
    model.board[to][x] = values[i];
    if (sel[i]) model.selected.set(key(x, to), sel[i].c);
  });
}

function applyShift(model, moves) {
  const columns = moves.map(([from]) => model.board.map((row) => row[from]));
  const sel = moves.map(([from]) => {
    const out = [];
    for (let y = 0; y < model.height; y++) {
      if (model.selected.has(key(from, y))) out.push([y, model.selected.get(key(from, y))]);
    }
    return out;
  });
  for (const [from] of moves) {
    for (let y = 0; y < model.height; y++) {
      model.board[y][from] = 0;
      model.selected.delete(key(from, y));
    }
  }
  moves.forEach(([, to], i) => {
    for (let y = 0; y < model.height; y++) model.board[y][to] = columns[i][y];
    for (const [y, c] of sel[i]) model.selected.set(key(to, y), c);
  });
}

// Applies one event to the model in place. Unknown kinds are ignored so that
// a later protocol addition does not break an older client.
export function applyEvent(model, ev) {
  switch (ev.kind) {
    case 'swap': {
      const [ax, ay] = ev.a;
      const [bx, by] = ev.b;
      const t = model.board[ay][ax];
      model.board[ay][ax] = model.board[by][bx];
      model.board[by][bx] = t;
      break;
    }
    case 'remove':
      for (const [x, y] of ev.cells) {
        model.board[y][x] = 0;
        model.selected.delete(key(x, y));
      }
      break;
    case 'score':
      model.score = ev.total;
      break;
    case 'fall':
      applyFall(model, ev.moves);
      break;
    case 'shift':
      applyShift(model, ev.moves);
      break;
    case 'spawn':
      for (const [x, y, c] of ev.cells) model.board[y][x] = c;
      break;
    case 'peek':
      model.peeks += 1;
      model.lastPeek = { x: ev.x, y: ev.y, color: ev.color };
      break;
    case 'select':
      model.selected.set(key(ev.x, ev.y), ev.color);
      break;
    case 'unselect':
      model.selected.delete(key(ev.x, ev.y));
      break;
    case 'game_over':
      model.over = true;
      model.score = ev.final_score;
      model.overInfo = { reason: ev.reason, bonus: ev.bonus, finalScore: ev.final_score };
      break;
    default:
      break;
  }
}

export function applyEvents(model, events) {
  for (const ev of events) applyEvent(model, ev);
}

// The board as the client sees it; with showSelected, selected cells carry
// their colour (hidden mode), otherwise they stay -1 like any hidden cell.
export function visibleRows(model, showSelected) {
  const rows = model.board.map((row) => row.slice());
  if (showSelected) {
    for (const [k, c] of model.selected) {
      const [x, y] = k.split(',').map(Number);
      if (c != null && rows[y][x] < 0) rows[y][x] = c;
    }
  }
  return rows;
}

// The model's state_hash. Hidden mode leaves one point open in protocol.md:
// whether a selected cell counts as seen; `candidateHashes` gives both.
export function modelHash(model, showSelected = false) {
  return stateHash(visibleRows(model, showSelected), model.moveCount, model.score);
}

export function candidateHashes(model) {
  const plain = modelHash(model, false);
  if (model.selected.size === 0) return [plain];
  return [plain, modelHash(model, true)];
}
