// A ghost race's arithmetic (web-client/js/race/pace.js, links.js): the
// ghost's step times (recorded, or an even pace for an entry stored before
// offsets), its score at a given time, who is ahead, the record kept per
// move (an undo replaces entries), the result, and which entries can race.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  stepTimes, stepsDue, scoreAt, leadOf, raceResult, recordMove, EVEN_PACE_MS,
} from '../../../web-client/js/race/pace.js';
import { raceUrl, raceable } from '../../../web-client/js/race/links.js';
import { replayUrl } from '../../../web-client/js/replay/links.js';

const step = (score, tMs, move = ['click', 0, 0]) => ({ move, score, t_ms: tMs });
const replay = (steps) => ({ start: { score: 0 }, steps });

test('recorded times are used as they are; the score follows them', () => {
  const r = replay([step(4, 900), step(13, 2500), step(13, 2500, null)]);
  const { times, paced } = stepTimes(r.steps);
  assert.equal(paced, true);
  assert.deepEqual(times, [900, 2500, 2500]);
  assert.equal(stepsDue(times, 0), 0);
  assert.equal(stepsDue(times, 900), 1);
  assert.equal(stepsDue(times, 2499), 1);
  assert.equal(stepsDue(times, 2500), 3);
  assert.equal(scoreAt(r, times, 100), 0);
  assert.equal(scoreAt(r, times, 1000), 4);
  assert.equal(scoreAt(r, times, 60000), 13);
});

test('an entry without times goes at an even pace: its duration over its moves, or the default', () => {
  const steps = [step(1, null), step(5, null), step(5, null, null)];
  assert.deepEqual(stepTimes(steps, 3000), { times: [1500, 3000, 3000], paced: false });
  assert.deepEqual(stepTimes(steps).times, [EVEN_PACE_MS, 2 * EVEN_PACE_MS, 2 * EVEN_PACE_MS]);
  // One null among times is no pace at all.
  assert.equal(stepTimes([step(1, 100), step(2, null)], 1000).paced, false);
  assert.deepEqual(stepTimes([]), { times: [], paced: false });
});

test('lead, record and result', () => {
  assert.equal(leadOf(5, 3), 'ahead');
  assert.equal(leadOf(3, 5), 'behind');
  assert.equal(leadOf(4, 4), 'level');
  let rec = recordMove([], { moveCount: 1, ms: 300, mine: 9, ghost: 0 });
  rec = recordMove(rec, { moveCount: 2, ms: 4000, mine: 9, ghost: 25 });
  assert.deepEqual(rec.map((r) => r.lead), ['ahead', 'behind']);
  // An undo, then another second move: it replaces the first second move.
  rec = recordMove(rec.slice(0, 1), { moveCount: 2, ms: 5000, mine: 9, ghost: 9 });
  assert.deepEqual(rec.map((r) => [r.move, r.lead]), [[1, 'ahead'], [2, 'level']]);
  assert.deepEqual(raceResult(30, 25), { winner: 'me', margin: 5 });
  assert.deepEqual(raceResult(20, 25), { winner: 'ghost', margin: 5 });
  assert.deepEqual(raceResult(7, 7), { winner: 'tie', margin: 0 });
});

test('only an entry on a closed competition board can race', () => {
  const now = Date.parse('2026-11-26T12:00:00.000Z');
  assert.equal(raceUrl('ab12'), '/?view=race&game=ab12');
  assert.equal(raceable({ competition: 'c1', moves_published_at: '2026-11-26T11:00:00.000Z' }, now), true);
  assert.equal(raceable({ competition: 'c1', moves_published_at: '2026-11-26T13:00:00.000Z' }, now), false);
  assert.equal(raceable({ competition: null, moves_published_at: null }, now), false);
  assert.equal(raceable(null, now), false);
});

test('a replay\'s address, and at a move', () => {
  assert.equal(replayUrl('ab12'), '/?view=replay&game=ab12');
  assert.equal(replayUrl('ab12', 0), '/?view=replay&game=ab12&move=0');
  assert.equal(replayUrl('ab12', 17), '/?view=replay&game=ab12&move=17');
});
