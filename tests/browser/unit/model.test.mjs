// The event applier (web-client/js/model.js) on small hand-made boards:
// applying a reply's events in order must give the server's board, score and
// state_hash (protocol.md, "Events").

import test from 'node:test';
import assert from 'node:assert/strict';
import { modelFromView, applyEvents, applyEvent, modelHash, candidateHashes, visibleRows } from '../../../web-client/js/model.js';
import { stateHash } from '../../../web-client/js/hash.js';

function view(board, extra = {}) {
  return { game_id: 'g1', mode: 'same', preset: 'easy', seed: 's', ranked: true, width: board[0].length,
    height: board.length, colors: 3, board, score: 0, move_count: 0, moves_left: null, over: false,
    rules_version: 1, state_hash: '', ...extra };
}

test('model copies the board', () => {
  const b = [[1, 2], [3, 1]];
  const m = modelFromView(view(b));
  m.board[0][0] = 9;
  assert.equal(b[0][0], 1);
});

test('Same Game click: remove, score, fall, shift gives the rules\' board', () => {
  // The group of (0,0) is column 0 plus (1,2), all colour 1:
  //   1 2 3      . 2 3      . . 3      3 . .
  //   1 2 3  ->  . 2 3  ->  . 2 3  ->  ... after the fall of column 1 by one
  //   1 1 2      . . 2      . 2 2      and the shift of columns 1, 2 to 0, 1:
  //   [[0,3,0],[2,3,0],[2,2,0]]
  const m = modelFromView(view([[1, 2, 3], [1, 2, 3], [1, 1, 2]]));
  applyEvents(m, [
    { kind: 'remove', cells: [[0, 0], [0, 1], [0, 2], [1, 2]] },
    { kind: 'score', delta: 4, total: 4 },
    { kind: 'fall', moves: [[1, 1, 2], [1, 0, 1]] },
    { kind: 'shift', moves: [[1, 0], [2, 1]] },
  ]);
  m.moveCount = 1;
  assert.deepEqual(m.board, [[0, 3, 0], [2, 3, 0], [2, 2, 0]]);
  assert.equal(m.score, 4);
  assert.equal(modelHash(m), stateHash([[0, 3, 0], [2, 3, 0], [2, 2, 0]], 1, 4));
});

test('fall moves happen at once (sources read before targets are written)', () => {
  // (0,0)->(0,1) targets the source of (0,1)->(0,2): applied one by one in
  // this order, the 6 would be overwritten before it moved.
  const m = modelFromView(view([[5], [6], [0]]));
  applyEvent(m, { kind: 'fall', moves: [[0, 0, 1], [0, 1, 2]] });
  assert.deepEqual(m.board, [[0], [5], [6]]);
});

test('shift moves happen at once and leave columns without a source empty', () => {
  const m = modelFromView(view([[0, 1, 2, 3], [0, 1, 2, 3]]));
  applyEvent(m, { kind: 'shift', moves: [[1, 0], [2, 1], [3, 2]] });
  assert.deepEqual(m.board, [[1, 2, 3, 0], [1, 2, 3, 0]]);
});

test('match-3 swap, waves and spawn', () => {
  //  1 2 1        swap (1,0)<->(1,1):  1 1 1  -> run of three on row 0
  //  2 1 3                              2 2 3
  const m = modelFromView(view([[1, 2, 1], [2, 1, 3]], { mode: 'match3', moves_left: 10 }));
  applyEvents(m, [
    { kind: 'swap', a: [1, 0], b: [1, 1] },
    { kind: 'remove', cells: [[0, 0], [1, 0], [2, 0]], wave: 1 },
    { kind: 'score', delta: 30, total: 30 },
    { kind: 'spawn', cells: [[0, 0, 4], [1, 0, 5], [2, 0, 6]], wave: 1 },
  ]);
  assert.deepEqual(m.board, [[4, 5, 6], [2, 2, 3]]);
  assert.equal(m.score, 30);
});

test('game_over sets the final score (clear bonus included)', () => {
  const m = modelFromView(view([[1, 1]]));
  applyEvents(m, [
    { kind: 'remove', cells: [[0, 0], [1, 0]] },
    { kind: 'score', delta: 0, total: 0 },
    { kind: 'game_over', reason: 'cleared', bonus: 1000, final_score: 1000 },
  ]);
  assert.equal(m.over, true);
  assert.equal(m.score, 1000);
  assert.deepEqual(m.overInfo, { reason: 'cleared', bonus: 1000, finalScore: 1000 });
});

test('hidden: peek changes score only; select keeps the colour beside the board', () => {
  const m = modelFromView(view([[-1, -1], [-1, 0]], { mode: 'hidden', peeks: 0, selected: [], elapsed_ms: 0 }));
  applyEvents(m, [{ kind: 'peek', x: 0, y: 0, color: 2 }, { kind: 'score', delta: -1, total: -1 }]);
  m.moveCount = 1;
  assert.deepEqual(m.board, [[-1, -1], [-1, 0]]);
  assert.equal(m.peeks, 1);
  assert.equal(modelHash(m), stateHash([[-1, -1], [-1, 0]], 1, -1));
  applyEvent(m, { kind: 'select', x: 0, y: 0, color: 2 });
  m.moveCount = 2;
  assert.deepEqual(visibleRows(m, true), [[2, -1], [-1, 0]]);
  assert.deepEqual(candidateHashes(m), [
    stateHash([[-1, -1], [-1, 0]], 2, -1), stateHash([[2, -1], [-1, 0]], 2, -1)]);
  applyEvent(m, { kind: 'unselect', x: 0, y: 0 });
  assert.equal(m.selected.size, 0);
});

test('hidden: a selection shown in the view board is moved beside it', () => {
  const m = modelFromView(view([[3, -1], [-1, -1]], { mode: 'hidden', selected: [[0, 0]], peeks: 2 }));
  assert.equal(m.board[0][0], -1);
  assert.equal(m.selected.get('0,0'), 3);
  assert.equal(m.peeks, 2);
});

test('hidden: a completed group is removed and the cells above fall', () => {
  const m = modelFromView(view([[-1, -1], [-1, -1]], { mode: 'hidden', selected: [[0, 1]] }));
  applyEvents(m, [
    { kind: 'select', x: 1, y: 1, color: 1 },
    { kind: 'remove', cells: [[0, 1], [1, 1]] },
    { kind: 'score', delta: 20, total: 20 },
    { kind: 'fall', moves: [[0, 0, 1], [1, 0, 1]] },
  ]);
  assert.deepEqual(m.board, [[0, 0], [-1, -1]]);
  assert.equal(m.selected.size, 0);
  assert.equal(m.score, 20);
});

test('unknown event kinds are ignored', () => {
  const m = modelFromView(view([[1]]));
  applyEvent(m, { kind: 'sparkle' });
  assert.deepEqual(m.board, [[1]]);
});
