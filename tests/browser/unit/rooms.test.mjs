// The rooms page's pure logic (web-client/js/rooms/state.js and follow.js):
// roles from join answers, live progress, scoreboard order, push routing,
// and the spectator's boards rebuilt from room_events in order, with gaps,
// stale moves, resigns and undo (room_game) handled.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  normalizeCode, sameCode, roomUrl, roleFromAnswer, applyProgress, scoreboard, standingRows, pushCode, leftNames, watchesRoom,
} from '../../../web-client/js/rooms/state.js';
import { Follower, isResign } from '../../../web-client/js/rooms/follow.js';
import { stateHash } from '../../../web-client/js/hash.js';

const player = (name, extra = {}) => ({ name, score: 0, move_count: 0, over: false, connected: true, ...extra });
const room = (extra = {}) => ({ code: 'QX4PZR', mode: 'same', preset: 'easy', seed: 's', host: 'ann',
  state: 'lobby', players: [player('ann'), player('bob')], spectators: 0, ...extra });

function gameView(board, extra = {}) {
  const v = { game_id: 'g1', mode: 'same', preset: 'easy', seed: 's', ranked: true, width: board[0].length,
    height: board.length, colors: 3, board, score: 0, move_count: 0, moves_left: null, over: false,
    rules_version: 1, ...extra };
  v.state_hash = stateHash(board, v.move_count, v.score);
  return v;
}

test('codes ignore case and stray spaces; share links', () => {
  assert.equal(normalizeCode(' qx4-pzr '), 'QX4PZR');
  assert.ok(sameCode('qx4pzr', 'QX4PZR'));
  assert.ok(!sameCode('', ''));
  assert.equal(roomUrl('QX4PZR'), '/?view=rooms&room=QX4PZR');
  assert.equal(roomUrl('QX4PZR', { watch: true }), '/?view=rooms&room=QX4PZR&watch=1');
});

test('the role comes from the join answer', () => {
  assert.equal(roleFromAnswer({ room: room() }, 'bob'), 'player');
  assert.equal(roleFromAnswer({ room: room() }, 'sam'), 'spectator');
  assert.equal(roleFromAnswer({ room: room({ state: 'playing' }), game: {} }, 'bob'), 'player');
  assert.equal(roleFromAnswer({ room: room({ state: 'playing' }), games: {} }, 'bob'), 'spectator',
    'a player who left comes back as a spectator');
});

test('progress updates one player; the scoreboard orders by score, then fewer moves', () => {
  let r = room({ state: 'playing', players: [player('ann'), player('bob'), player('cy')] });
  r = applyProgress(r, { type: 'room_progress', code: 'QX4PZR', player: 'bob', score: 40, move_count: 3, over: false });
  r = applyProgress(r, { type: 'room_progress', code: 'QX4PZR', player: 'cy', score: 40, move_count: 2, over: true });
  assert.deepEqual(r.players.map((p) => p.score), [0, 40, 40]);
  assert.equal(r.players[2].over, true);
  assert.deepEqual(scoreboard(r).map((p) => p.name), ['cy', 'bob', 'ann']);
  assert.equal(applyProgress(r, { player: 'zed', score: 1, move_count: 1, over: false }), r);
  assert.deepEqual(scoreboard(room()).map((p) => p.name), ['ann', 'bob'], 'the lobby keeps joining order');
  const rows = standingRows([{ rank: 1, player: 'ann', score: 9, move_count: 2 },
    { rank: 1, player: 'bob', score: 9, move_count: 2 }], 'bob');
  assert.deepEqual(rows.map((s) => [s.rank, s.me]), [[1, false], [1, true]]);
});

test('pushes are routed by their room code', () => {
  assert.equal(pushCode({ type: 'room', room: room() }), 'QX4PZR');
  assert.equal(pushCode({ type: 'room_events', code: 'AB' }), 'AB');
  assert.equal(pushCode({ type: 'events', code: 'AB' }), null);
  assert.equal(pushCode(null), null);
});

test('a spectator follows a board move by move, and checks each state_hash', () => {
  const f = new Follower();
  f.reset({ ann: gameView([[1, 1], [2, 3]]) });
  assert.equal(f.boards.get('ann').hashOk, true);
  const after = [[0, 0], [2, 3]];
  const msg = { type: 'room_events', code: 'C', player: 'ann', move_count: 1, state_hash: stateHash(after, 1, 0),
    events: [{ kind: 'remove', cells: [[0, 0], [1, 0]] }, { kind: 'score', delta: 0, total: 0 }] };
  assert.equal(f.apply(msg), 'applied');
  assert.equal(f.boards.get('ann').hashOk, true);
  assert.equal(f.apply(msg), 'stale', 'a move the board already holds');
  assert.equal(f.apply({ ...msg, move_count: 3 }), 'gap');
  assert.equal(f.apply({ ...msg, player: 'zed' }), 'unknown');
  const snap = f.snapshot().ann;
  assert.deepEqual(snap.board, after);
  assert.equal(snap.hash, msg.state_hash);
  assert.equal(f.mismatches, 0);
});

test('a wrong event stream is caught by the hash', () => {
  const f = new Follower();
  f.reset({ ann: gameView([[1, 1], [2, 3]]) });
  f.apply({ player: 'ann', move_count: 1, state_hash: '0000000000000000',
    events: [{ kind: 'remove', cells: [[0, 0], [1, 0]] }, { kind: 'score', delta: 0, total: 0 }] });
  assert.equal(f.boards.get('ann').hashOk, false);
  assert.equal(f.mismatches, 1);
});

test('a resign keeps move_count and ends the board once; undo replaces the view', () => {
  const f = new Follower();
  const start = gameView([[1, 1], [2, 3]], { move_count: 2, score: 5 });
  f.reset({ bob: start });
  const resign = { player: 'bob', move_count: 2, state_hash: start.state_hash,
    events: [{ kind: 'game_over', reason: 'resigned', bonus: 0, final_score: 5 }] };
  assert.ok(isResign(resign.events));
  assert.equal(f.apply(resign), 'applied');
  assert.equal(f.snapshot().bob.over, true);
  assert.equal(f.apply(resign), 'stale');
  f.load('bob', gameView([[1, 2], [2, 3]], { move_count: 1, score: 1 }));
  assert.equal(f.snapshot().bob.move_count, 1);
  assert.equal(f.snapshot().bob.over, false);
});

test('hidden mode: a spectator\'s peek carries colour -1 and the selection shows', () => {
  const board = [[-1, -1], [-1, -1]];
  const f = new Follower();
  f.reset({ ann: gameView(board, { mode: 'hidden', preset: 'classic', peeks: 0, selected: [], elapsed_ms: 0 }) });
  assert.equal(f.apply({ player: 'ann', move_count: 1, state_hash: stateHash(board, 1, -1),
    events: [{ kind: 'peek', x: 0, y: 0, color: -1 }, { kind: 'score', delta: -1, total: -1 }] }), 'applied');
  assert.equal(f.boards.get('ann').hashOk, true);
  assert.equal(f.apply({ player: 'ann', move_count: 2, state_hash: stateHash([[2, -1], [-1, -1]], 2, -1),
    events: [{ kind: 'select', x: 0, y: 0, color: 2 }] }), 'applied');
  assert.equal(f.boards.get('ann').hashOk, true, 'either reading of a selected cell in state_hash is accepted');
  assert.deepEqual(f.snapshot().ann.board, [[2, -1], [-1, -1]]);
});

test('the standings mark a player who left a started room as its table does: gone and over', () => {
  const players = [player('ann', { over: true }), player('bob', { over: true, connected: false }),
    player('cy', { connected: false }), player('dee', { over: false })];
  assert.deepEqual([...leftNames(room({ state: 'finished', players }))], ['bob']);
  assert.deepEqual([...leftNames(room({ state: 'playing', players }))], ['bob']);
  assert.deepEqual([...leftNames(room({ state: 'lobby', players }))], []);
  assert.deepEqual([...leftNames(null)], []);
});

test('a watch link is read the same way by the rooms page and the name dialog', () => {
  assert.equal(watchesRoom({ view: 'rooms', room: 'QX4PZR', watch: '1' }), true);
  assert.equal(watchesRoom({ view: 'rooms', room: 'QX4PZR', as: 'spectator' }), true);
  assert.equal(watchesRoom({ view: 'rooms', room: 'QX4PZR' }), false);
  assert.equal(watchesRoom({ view: 'rooms', room: 'QX4PZR', watch: '0' }), false);
});
