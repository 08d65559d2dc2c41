// The running attempts' pure helpers (web-client/js/running.js): which
// listed attempt a competition page and a daily's Play resume, the list
// kept from the session when the request fails, and which games leaving
// and giving up ask about.

import test from 'node:test';
import assert from 'node:assert/strict';
import { fetchRunning, isRunningAttempt, runningDaily, runningIn } from '../../../web-client/js/running.js';

const entry = (extra) => ({ game_id: '9e41c07d2a5b8f36', competition: 'daily-2026-11-24-hidden-classic',
  mode: 'hidden', preset: 'classic', attempt: 1, ranked: true, score: 0, move_count: 0,
  started_at: '2026-11-24T09:37:40.112Z', closes_at: '2026-11-25T00:00:00.000Z', ...extra });

test('runningIn finds the attempt of one competition, the latest first', () => {
  const list = [entry({ game_id: 'b', competition: 'k7qm3xw9tbfp', mode: 'match3' }),
    entry({ game_id: 'a' }), entry({ game_id: 'c', competition: 'k7qm3xw9tbfp' })];
  assert.equal(runningIn(list, 'k7qm3xw9tbfp').game_id, 'b');
  assert.equal(runningIn(list, 'daily-2026-11-24-hidden-classic').game_id, 'a');
  assert.equal(runningIn(list, 'nothing'), null);
  assert.equal(runningIn(null, 'x'), null);
});

test('runningDaily matches the daily of a mode and preset, whatever its date', () => {
  const list = [entry({ game_id: 'org', competition: 'h2vd8rxq4nez', mode: 'hidden', preset: 'classic' }),
    entry({ game_id: 'large', competition: 'daily-2026-11-24-hidden-large', preset: 'large' }),
    entry({ game_id: 'classic' })];
  assert.equal(runningDaily(list, 'hidden', 'classic').game_id, 'classic');
  assert.equal(runningDaily(list, 'hidden', 'large').game_id, 'large');
  assert.equal(runningDaily(list, 'match3', 'classic'), null);
  // An organiser's competition on the same board is not the daily.
  assert.equal(runningDaily([list[0]], 'hidden', 'classic'), null);
});

test('fetchRunning asks the server, and falls back to the session list', async () => {
  const list = [entry({})];
  assert.deepEqual(await fetchRunning({ request: async (type) => ({ type, running: list }) }), list);
  const old = { running: [entry({ game_id: 'w' })], request: async () => { throw { code: 'bad_request' }; } };
  assert.equal((await fetchRunning(old))[0].game_id, 'w');
  assert.deepEqual(await fetchRunning({ request: async () => { throw { code: 'disconnected' }; } }), []);
});

test('only a counted competition attempt still running is guarded', () => {
  const view = { competition: 'daily-2026-11-24-hidden-classic', attempt: 1, over: false };
  assert.equal(isRunningAttempt(view, false), true);
  assert.equal(isRunningAttempt(view, true), false, 'over on the client');
  assert.equal(isRunningAttempt({ ...view, over: true }, false), false);
  assert.equal(isRunningAttempt({ ...view, attempt: null }, false), false, 'daily practice');
  assert.equal(isRunningAttempt({ ...view, competition: null, attempt: null }, false), false, 'casual');
  assert.equal(isRunningAttempt(null, false), false);
});
