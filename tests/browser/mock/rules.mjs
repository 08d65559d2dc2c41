// Rules of the three modes for the mock server (a stand-in for the C++
// server while it is being written; rules.md, own simple generator, so its
// boards differ from the real server's). Refusals throw {code, message}.
// setup.dealSeed, when given (a competition: its seed and board key), deals
// the board instead of setup.seed, which the game still shows.

import { stateHash } from '../../../web-client/js/hash.js';

const PRESETS = {
  same: { easy: [10, 10, 3], normal: [15, 12, 4], hard: [20, 15, 5], classic: [15, 15, 5] },
  match3: { classic: [8, 8, 6, 30], big: [10, 10, 7, 40], crush: [9, 9, 5, null] },
  hidden: { classic: [10, 10, 3], large: [15, 12, 4] },
};

export function presetExists(mode, preset) {
  return !!(PRESETS[mode] && PRESETS[mode][preset]);
}

function rng(seed) {
  let h = 2166136261;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return () => {
    h = (h + 0x6d2b79f5) >>> 0;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const refuse = (code, message) => { throw { code, message }; };
const N4 = [[1, 0], [-1, 0], [0, 1], [0, -1]];

function group(b, x, y) {
  const c = b[y][x];
  const seen = new Set([`${x},${y}`]);
  const out = [[x, y]];
  for (let i = 0; i < out.length; i++) {
    const [cx, cy] = out[i];
    for (const [dx, dy] of N4) {
      const nx = cx + dx; const ny = cy + dy;
      if (b[ny] && b[ny][nx] === c && !seen.has(`${nx},${ny}`)) { seen.add(`${nx},${ny}`); out.push([nx, ny]); }
    }
  }
  return out;
}

function hasGroup(b) {
  for (let y = 0; y < b.length; y++) {
    for (let x = 0; x < b[0].length; x++) {
      const c = b[y][x];
      if (c && ((b[y][x + 1] === c) || (b[y + 1] && b[y + 1][x] === c))) return true;
    }
  }
  return false;
}

function gravity(b) {
  const moves = [];
  const H = b.length;
  for (let x = 0; x < b[0].length; x++) {
    let write = H - 1;
    for (let y = H - 1; y >= 0; y--) {
      if (b[y][x]) {
        if (y !== write) { moves.push([x, y, write]); b[write][x] = b[y][x]; b[y][x] = 0; }
        write--;
      }
    }
  }
  return moves;
}

function compress(b) {
  const moves = [];
  let to = 0;
  for (let x = 0; x < b[0].length; x++) {
    if (b.some((row) => row[x])) {
      if (x !== to) { moves.push([x, to]); for (const row of b) { row[to] = row[x]; row[x] = 0; } }
      to++;
    }
  }
  return moves;
}

class Base {
  constructor(setup, w, h) {
    this.mode = setup.mode; this.preset = setup.preset || null; this.seed = setup.seed;
    this.ranked = !!setup.preset && !setup.board; this.width = w; this.height = h;
    this.score = 0; this.moves = []; this.over = false; this.history = [];
  }
  inside(x, y) {
    if (!Number.isInteger(x) || !Number.isInteger(y)) refuse('bad_request', 'coordinates');
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) refuse('invalid_move', 'outside the board');
  }
  visible() { return this.board.map((r) => r.slice()); }
  hash() { return stateHash(this.visible(), this.moves.length, this.score); }
  finish(events, reason, bonus = 0) {
    this.score += bonus; this.over = true; this.reason = reason;
    events.push({ kind: 'game_over', reason, bonus, final_score: this.score });
  }
  view() {
    return { game_id: this.id, mode: this.mode, preset: this.preset, seed: this.seed, ranked: this.ranked,
      width: this.width, height: this.height, colors: this.colors, board: this.visible(), score: this.score,
      move_count: this.moves.length, moves_left: null, over: this.over, rules_version: 1, state_hash: this.hash() };
  }
  preview() { refuse('bad_request', 'wrong mode'); }
  hint() { refuse('not_allowed', 'no hint in this mode'); }
  undo() { refuse('not_allowed', 'no undo in this mode'); }
}

export class SameGame extends Base {
  constructor(setup) {
    const [w, h, k] = setup.board ? [setup.board[0].length, setup.board.length, 0] : PRESETS.same[setup.preset];
    super(setup, w, h);
    const r = rng(setup.dealSeed ?? setup.seed);
    this.board = setup.board ? setup.board.map((row) => row.slice())
      : Array.from({ length: h }, () => Array.from({ length: w }, () => 1 + Math.floor(r() * k)));
    this.colors = setup.board ? Math.max(...this.board.flat()) : k;
    if (setup.board) { gravity(this.board); compress(this.board); }
  }
  groupAt(x, y) {
    this.inside(x, y);
    if (!this.board[y][x]) refuse('invalid_move', 'no tile there');
    const g = group(this.board, x, y);
    if (g.length < 2) refuse('invalid_move', 'a single tile cannot be removed');
    return g;
  }
  preview(x, y) { const g = this.groupAt(x, y); return { cells: g, points: (g.length - 2) ** 2 }; }
  hint() {
    let best = null;
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) {
      if (!this.board[y][x]) continue;
      const g = group(this.board, x, y);
      if (g.length >= 2 && (!best || g.length > best.n)) best = { x, y, n: g.length };
    }
    if (!best) refuse('not_allowed', 'no move left');
    return { click: [best.x, best.y] };
  }
  apply([kind, x, y]) {
    if (kind !== 'click') refuse('bad_request', 'wrong mode');
    const g = this.groupAt(x, y);
    this.history.push({ board: this.visible(), score: this.score });
    const events = [{ kind: 'remove', cells: g }];
    for (const [cx, cy] of g) this.board[cy][cx] = 0;
    const delta = (g.length - 2) ** 2;
    this.score += delta;
    events.push({ kind: 'score', delta, total: this.score });
    const fall = gravity(this.board);
    if (fall.length) events.push({ kind: 'fall', moves: fall });
    const shift = compress(this.board);
    if (shift.length) events.push({ kind: 'shift', moves: shift });
    this.moves.push([kind, x, y]);
    if (!hasGroup(this.board)) {
      const empty = this.board.every((row) => row.every((c) => !c));
      this.finish(events, empty ? 'cleared' : 'no_moves', empty ? 1000 : 0);
    }
    return events;
  }
  undo() {
    if (this.over || this.history.length === 0) refuse('not_allowed', 'nothing to undo');
    const s = this.history.pop();
    this.board = s.board; this.score = s.score; this.moves.pop();
  }
}

function runs(b) {
  const hit = new Set();
  const H = b.length; const W = b[0].length;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const c = b[y][x];
    if (!c) continue;
    if (x + 2 < W && b[y][x + 1] === c && b[y][x + 2] === c) for (let i = 0; i < 3; i++) hit.add(`${x + i},${y}`);
    if (y + 2 < H && b[y + 1][x] === c && b[y + 2][x] === c) for (let i = 0; i < 3; i++) hit.add(`${x},${y + i}`);
  }
  return [...hit].map((k) => k.split(',').map(Number));
}

export class Match3 extends Base {
  constructor(setup) {
    const [w, h, k, budget] = PRESETS.match3[setup.preset];
    super(setup, w, h);
    this.colors = k; this.budget = budget; this.refill = setup.preset !== 'crush';
    this.rand = rng(setup.dealSeed ?? setup.seed);
    do {
      this.board = Array.from({ length: h }, () => Array.from({ length: w }, () => 1 + Math.floor(this.rand() * k)));
    } while (runs(this.board).length || !this.validSwaps().length);
  }
  validSwaps() {
    const out = [];
    const b = this.board;
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) {
      for (const [dx, dy] of [[1, 0], [0, 1]]) {
        const nx = x + dx; const ny = y + dy;
        if (nx >= this.width || ny >= this.height || !b[y][x] || !b[ny][nx]) continue;
        [b[y][x], b[ny][nx]] = [b[ny][nx], b[y][x]];
        if (runs(b).length) out.push([[x, y], [nx, ny]]);
        [b[y][x], b[ny][nx]] = [b[ny][nx], b[y][x]];
      }
    }
    return out;
  }
  view() { return { ...super.view(), moves_left: this.budget == null ? null : this.budget - this.moves.length }; }
  hint() { const s = this.validSwaps(); if (!s.length) refuse('not_allowed', 'no move left'); return { swap: s[0] }; }
  apply([kind, x1, y1, x2, y2]) {
    if (kind !== 'swap') refuse('bad_request', 'wrong mode');
    this.inside(x1, y1); this.inside(x2, y2);
    const b = this.board;
    if (!b[y1][x1] || !b[y2][x2]) refuse('invalid_move', 'no tile there');
    if (Math.abs(x1 - x2) + Math.abs(y1 - y2) !== 1) refuse('invalid_move', 'the tiles are not next to each other');
    [b[y1][x1], b[y2][x2]] = [b[y2][x2], b[y1][x1]];
    if (!runs(b).length) { [b[y1][x1], b[y2][x2]] = [b[y2][x2], b[y1][x1]]; refuse('invalid_move', 'the swap makes no run'); }
    const events = [{ kind: 'swap', a: [x1, y1], b: [x2, y2] }];
    for (let wave = 1; ; wave++) {
      const cells = runs(b);
      if (!cells.length) break;
      for (const [x, y] of cells) b[y][x] = 0;
      const delta = 10 * cells.length * wave;
      this.score += delta;
      events.push({ kind: 'remove', cells, wave }, { kind: 'score', delta, total: this.score });
      const fall = gravity(b);
      if (fall.length) events.push({ kind: 'fall', moves: fall });
      if (this.refill) {
        const spawn = [];
        for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) {
          if (!b[y][x]) { b[y][x] = 1 + Math.floor(this.rand() * this.colors); spawn.push([x, y, b[y][x]]); }
        }
        if (spawn.length) events.push({ kind: 'spawn', cells: spawn, wave });
      }
    }
    this.moves.push([kind, x1, y1, x2, y2]);
    if (this.budget != null && this.moves.length >= this.budget) this.finish(events, 'out_of_moves');
    else if (!this.validSwaps().length) this.finish(events, 'no_moves');
    return events;
  }
}

export class Hidden extends Base {
  constructor(setup) {
    const [w, h, k] = PRESETS.hidden[setup.preset];
    super(setup, w, h);
    const r = rng(setup.dealSeed ?? setup.seed);
    this.colors = k; this.peeks = 0; this.selected = []; this.firstMoveAt = null; this.endedAt = null;
    this.board = Array.from({ length: h }, () => Array.from({ length: w }, () => 1 + Math.floor(r() * k)));
  }
  visible() { return this.board.map((row, y) => row.map((c, x) => (!c ? 0 : this.isSel(x, y) ? c : -1))); }
  isSel(x, y) { return this.selected.some(([a, b]) => a === x && b === y); }
  view() {
    const elapsed = this.firstMoveAt == null ? 0 : (this.endedAt ?? Date.now()) - this.firstMoveAt;
    return { ...super.view(), peeks: this.peeks, selected: this.selected.map((p) => p.slice()), elapsed_ms: elapsed };
  }
  apply([kind, x, y]) {
    this.inside(x, y);
    const b = this.board;
    const c = b[y][x];
    const events = [];
    const selNeighbours = () => N4.filter(([dx, dy]) => this.isSel(x + dx, y + dy) && b[y + dy][x + dx] === c);
    if (kind === 'peek') {
      if (!c) refuse('invalid_move', 'no tile there');
      this.peeks++; this.score -= 1;
      events.push({ kind: 'peek', x, y, color: c }, { kind: 'score', delta: -1, total: this.score });
    } else if (kind === 'select') {
      if (!c) refuse('invalid_move', 'no tile there');
      if (this.isSel(x, y)) refuse('invalid_move', 'that tile is already selected');
      const ok = this.selected.length === 0 ? group(b, x, y).length >= 2 : selNeighbours().length > 0;
      const touches = N4.some(([dx, dy]) => this.isSel(x + dx, y + dy));
      if (!ok) {
        refuse('invalid_move', this.selected.length === 0 || touches ? 'that tile cannot be selected'
          : 'select a tile next to the selection');
      }
      this.selected.push([x, y]);
      events.push({ kind: 'select', x, y, color: c });
      const g = group(b, x, y);
      if (g.every(([gx, gy]) => this.isSel(gx, gy))) {
        for (const [gx, gy] of g) b[gy][gx] = 0;
        this.selected = [];
        this.score += 10 * g.length;
        events.push({ kind: 'remove', cells: g }, { kind: 'score', delta: 10 * g.length, total: this.score });
        const fall = gravity(b);
        if (fall.length) events.push({ kind: 'fall', moves: fall });
      }
    } else if (kind === 'unselect') {
      if (!this.isSel(x, y)) refuse('invalid_move', 'that tile is not selected');
      if (selNeighbours().length >= 3) refuse('invalid_move', 'a tile with three or more selected neighbours cannot be unselected');
      this.selected = this.selected.filter(([a, bb]) => a !== x || bb !== y);
      events.push({ kind: 'unselect', x, y });
    } else refuse('bad_request', 'wrong mode');
    if (this.firstMoveAt == null) this.firstMoveAt = Date.now();
    this.moves.push([kind, x, y]);
    const empty = b.every((row) => row.every((v) => !v));
    if (empty || !hasGroup(b)) { this.endedAt = Date.now(); this.finish(events, empty ? 'cleared' : 'no_moves', empty ? 1000 : 0); }
    return events;
  }
}

export function createGame(setup) {
  if (setup.mode === 'same') return new SameGame(setup);
  if (setup.mode === 'match3') return new Match3(setup);
  return new Hidden(setup);
}
