// A spectator's copy of every player's board, rebuilt from the starting
// views the server sends (room_started `games`, or `games` in the join
// answer) and kept up to date with room_events, one move at a time; undo
// arrives as a whole view (room_game). Each board is checked against the
// state_hash of its push. Pure module (no DOM): unit-tested in node.

import { modelFromView, applyEvents, candidateHashes, visibleRows } from '../model.js';

// A resign is reported as a room_events holding only game_over, without
// changing move_count (protocol/README.md).
export function isResign(events) {
  return events.length === 1 && events[0].kind === 'game_over' && events[0].reason === 'resigned';
}

export class Follower {
  constructor() {
    this.boards = new Map();   // name -> {model, view, serverHash, hashOk}
    this.mismatches = 0;
    this.gaps = 0;
  }

  // Replaces every board with the views of {name: GameView}.
  reset(games) {
    this.boards.clear();
    for (const [name, view] of Object.entries(games || {})) this.load(name, view);
  }

  load(name, view) {
    const model = modelFromView(view);
    const entry = { model, view, serverHash: view.state_hash, hashOk: true };
    entry.hashOk = !view.state_hash || candidateHashes(model).includes(view.state_hash);
    if (!entry.hashOk) this.mismatches += 1;
    this.boards.set(name, entry);
    return entry;
  }

  // Applies one room_events message. Returns what happened:
  //   'applied'  the next move of that board (hash checked: see `hashOk`)
  //   'stale'    a move the board already holds (sent before our view)
  //   'gap'      a move is missing: the caller should fetch fresh views
  //   'unknown'  no board for that player
  apply(msg) {
    const entry = this.boards.get(msg.player);
    if (!entry) return 'unknown';
    const events = msg.events || [];
    const m = entry.model;
    const resign = isResign(events);
    const expected = m.moveCount + (resign ? 0 : 1);
    if (msg.move_count < expected || (resign && m.over)) return 'stale';
    if (msg.move_count > expected) {
      this.gaps += 1;
      return 'gap';
    }
    applyEvents(m, events);
    m.moveCount = msg.move_count;
    entry.serverHash = msg.state_hash;
    entry.hashOk = !msg.state_hash || candidateHashes(m).includes(msg.state_hash);
    if (!entry.hashOk) this.mismatches += 1;
    return 'applied';
  }

  // A test and debugging snapshot: every board as the spectator sees it.
  snapshot() {
    const out = {};
    for (const [name, { model, serverHash, hashOk }] of this.boards) {
      const candidates = candidateHashes(model);
      out[name] = {
        game_id: model.gameId,
        board: visibleRows(model, true),
        score: model.score,
        move_count: model.moveCount,
        over: model.over,
        hash: candidates.includes(serverHash) ? serverHash : candidates[0],
        serverHash,
        hashOk,
      };
    }
    return out;
  }
}
