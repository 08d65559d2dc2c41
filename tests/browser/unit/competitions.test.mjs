// The competition pages' pure logic (web-client/js/competitions/logic.js):
// addresses and codes, the clock from opens_in_s/closes_in_s, the attempts
// texts, the commitment check (SHA-256 of the key's 32 bytes, WebCrypto as
// in the browser), datetime-local <-> UTC, the organiser's request body,
// and the rows of the results table.

import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  validId, compUrl, compLeaderboardUrl, attemptUrl, dailyUrl, codeFromInput, phase, attemptsRule, attemptsInfo,
  hexToBytes, bytesToHex, checkCommitment, toLocalInput, localInputToIso, openNowIso, createBody, createRefusalKey,
  resultRows,
  sortCompetitions, resultsDigest, dqCheck,
} from '../../../web-client/js/competitions/logic.js';
import { MODES, PRESETS } from '../../../web-client/js/presets.js';

const view = (extra = {}) => ({ id: 'k3j9x2m7pq', name: 'Friday cup', mode: 'match3', preset: 'classic',
  seed: 'k3j9x2m7pq', daily: false, opens_at: '2026-11-24T10:00:00.000Z', closes_at: '2026-11-24T12:00:00.000Z',
  state: 'open', opens_in_s: 0, closes_in_s: 3600, attempts: 3, counts: 'best', unlisted: false,
  organiser: 'ann', rules_version: 2, commitment: 'c'.repeat(64), key: null, ...extra });

test('addresses: competition page, its leaderboard, an attempt, the daily', () => {
  assert.equal(compUrl('k3j9x2m7pq'), '/?view=competition&id=k3j9x2m7pq');
  assert.equal(compLeaderboardUrl('daily-2026-11-24-match3-classic'),
    '/?view=leaderboard&competition=daily-2026-11-24-match3-classic');
  assert.equal(compLeaderboardUrl('x1', { offset: 20 }), '/?view=leaderboard&competition=x1&offset=20');
  assert.equal(compLeaderboardUrl('x1', { around: true }), '/?view=leaderboard&competition=x1&around=1');
  assert.equal(attemptUrl({ mode: 'same', preset: 'easy', competition: 'k3j9x2m7pq', game_id: '3f9c' }),
    '/?mode=same&preset=easy&competition=k3j9x2m7pq&game=3f9c');
  assert.equal(dailyUrl('hidden', 'large'), '/?mode=hidden&preset=large&daily=1');
  assert.ok(validId('daily-2026-11-24-match3-classic'));
  assert.ok(!validId(''));
  assert.ok(!validId('a b'));
  assert.ok(!validId('../x'));
});

test('a code or a pasted link gives the id', () => {
  assert.equal(codeFromInput('  k3j9x2m7pq '), 'k3j9x2m7pq');
  assert.equal(codeFromInput('https://play.example/?view=competition&id=k3j9x2m7pq'), 'k3j9x2m7pq');
  assert.equal(codeFromInput('/?view=competition&id=daily-2026-11-24-same-easy'), 'daily-2026-11-24-same-easy');
  assert.equal(codeFromInput(''), null);
  assert.equal(codeFromInput('no spaces allowed'), null);
  assert.equal(codeFromInput('https://x/?id=<b>'), null);
});

test('the clock counts from the fetch, in this browser\'s time', () => {
  const t0 = 1_000_000;
  assert.deepEqual(phase(view({ state: 'upcoming', opens_in_s: 10, closes_in_s: 70 }), t0, t0 + 4000),
    { state: 'upcoming', left: 6, pending: false });
  assert.deepEqual(phase(view({ state: 'upcoming', opens_in_s: 10, closes_in_s: 70 }), t0, t0 + 12000),
    { state: 'open', left: 58, pending: true }, 'past the opening: open, until the server confirms');
  assert.deepEqual(phase(view({ state: 'upcoming', opens_in_s: 10, closes_in_s: 20 }), t0, t0 + 25000),
    { state: 'closed', left: null, pending: true });
  assert.deepEqual(phase(view({ closes_in_s: 3600 }), t0, t0 + 600_000), { state: 'open', left: 3000, pending: false });
  assert.deepEqual(phase(view({ closes_in_s: 5 }), t0, t0 + 5000), { state: 'closed', left: null, pending: true });
  assert.deepEqual(phase(view({ state: 'closed', closes_in_s: 0 }), t0, t0), { state: 'closed', left: null, pending: false });
  assert.equal(phase(view({ closes_in_s: 5 }), t0, t0 - 3000).left, 5, 'a clock going back counts as no time');
});

test('attempts: the rule, and what the player has left', () => {
  assert.deepEqual(attemptsRule(view()), { key: 'comp.rule.n.best', vars: { n: 3 } });
  assert.deepEqual(attemptsRule(view({ counts: 'first' })), { key: 'comp.rule.n.first', vars: { n: 3 } });
  assert.deepEqual(attemptsRule(view({ attempts: 1, counts: 'first' })), { key: 'comp.rule.one', vars: {} });
  assert.deepEqual(attemptsRule(view({ attempts: null })), { key: 'comp.rule.unlimited.best', vars: {} });
  assert.equal(attemptsInfo(view()), null, 'no ?player: nothing to say');
  assert.deepEqual(attemptsInfo(view({ attempts_used: 1, attempts_left: 2 })),
    { key: 'comp.you.left', vars: { used: 1, left: 2, n: 3 }, left: 2 });
  assert.deepEqual(attemptsInfo(view({ attempts_used: 3, attempts_left: 0 })),
    { key: 'comp.you.none', vars: { used: 3, n: 3 }, left: 0 });
  assert.deepEqual(attemptsInfo(view({ attempts: null, attempts_used: 4, attempts_left: null })),
    { key: 'comp.you.unlimited', vars: { used: 4 }, left: null });
  // One attempt, or played once: no "all 1 attempts", no "1 times".
  assert.deepEqual(attemptsInfo(view({ attempts: 1, attempts_used: 1, attempts_left: 0 })),
    { key: 'comp.you.none1', vars: { used: 1, n: 1 }, left: 0 });
  assert.deepEqual(attemptsInfo(view({ attempts: 1, attempts_used: 0, attempts_left: 1 })),
    { key: 'comp.you.left1', vars: { used: 0, left: 1, n: 1 }, left: 1 });
  assert.deepEqual(attemptsInfo(view({ attempts: null, attempts_used: 1, attempts_left: null })),
    { key: 'comp.you.unlimited1', vars: { used: 1 }, left: null });
});

test('hex', () => {
  assert.deepEqual([...hexToBytes('00ff10Ab')], [0, 255, 16, 171]);
  assert.equal(hexToBytes('abc'), null);
  assert.equal(hexToBytes('zz'), null);
  assert.equal(bytesToHex(new Uint8Array([0, 255, 16, 171])), '00ff10ab');
});

test('the commitment is SHA-256 of the key\'s 32 bytes (not of its hex text)', async () => {
  const key = crypto.randomBytes(32);
  const keyHex = key.toString('hex');
  const commitment = crypto.createHash('sha256').update(key).digest('hex');
  assert.deepEqual(await checkCommitment(keyHex, commitment), { result: 'verified', digest: commitment });
  assert.equal((await checkCommitment(keyHex.toUpperCase(), commitment.toUpperCase())).result, 'verified');
  const ofText = crypto.createHash('sha256').update(keyHex).digest('hex');
  assert.equal((await checkCommitment(keyHex, ofText)).result, 'mismatch');
  assert.equal((await checkCommitment(keyHex.slice(2), commitment)).result, 'invalid', '31 bytes');
  assert.equal((await checkCommitment(`${keyHex.slice(1)}g`, commitment)).result, 'invalid');
  assert.equal((await checkCommitment(keyHex, commitment, null)).result, 'unavailable', 'no WebCrypto (http page)');
  // A known value: SHA-256 of 32 zero bytes.
  assert.equal((await checkCommitment('0'.repeat(64),
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925')).result, 'verified');
});

test('datetime-local values are local time, sent as UTC', () => {
  const local = new Date(2026, 10, 24, 19, 0, 5);
  assert.equal(toLocalInput(local), '2026-11-24T19:00:05');
  assert.equal(localInputToIso('2026-11-24T19:00:05'), local.toISOString());
  assert.equal(localInputToIso('2026-11-24T19:00'), new Date(2026, 10, 24, 19, 0, 0).toISOString());
  assert.equal(localInputToIso(toLocalInput(local)), local.toISOString(), 'round trip');
  assert.equal(localInputToIso(''), null);
  assert.equal(localInputToIso('2026-02-30T10:00'), null, 'no 30 February');
  assert.equal(localInputToIso('tomorrow'), null);
  assert.equal(openNowIso(Date.parse('2026-11-24T10:00:00.250Z')), '2026-11-24T10:00:01.000Z');
  assert.equal(openNowIso(Date.parse('2026-11-24T10:00:00.000Z')), '2026-11-24T10:00:01.000Z', 'never in the past');
});

test('the organiser\'s form gives the POST body or the first problem', () => {
  // The browser's clock: an hour before the opening.
  const NOW = Date.parse('2026-11-24T09:00:00.000Z');
  const ok = { name: ' Friday cup ', mode: 'match3', preset: 'classic', opensIso: '2026-11-24T10:00:00.000Z',
    closesIso: '2026-11-24T12:00:00.000Z', unlimited: false, attempts: '3', counts: 'best', unlisted: true };
  assert.deepEqual(createBody(ok, PRESETS, NOW), { body: { name: 'Friday cup', mode: 'match3', preset: 'classic',
    opens_at: '2026-11-24T10:00:00.000Z', closes_at: '2026-11-24T12:00:00.000Z', attempts: 3, counts: 'best',
    unlisted: true } });
  assert.equal(createBody({ ...ok, unlimited: true, attempts: 'x' }, PRESETS, NOW).body.attempts, null);
  assert.equal(createBody({ ...ok, name: '' }, PRESETS, NOW).error, 'org.err.name');
  assert.equal(createBody({ ...ok, name: 'x'.repeat(65) }, PRESETS, NOW).error, 'org.err.name');
  // A name that would show as nothing, or a look-alike with an invisible character.
  assert.equal(createBody({ ...ok, name: '\u200B\u200B' }, PRESETS, NOW).error, 'name.err.invisible');
  assert.equal(createBody({ ...ok, name: 'Cup\u200B' }, PRESETS, NOW).error, 'name.err.invisible');
  assert.equal(createBody({ ...ok, name: '\u3000\u2800' }, PRESETS, NOW).error, 'name.err.nothingVisible');
  assert.equal(createRefusalKey('name must not contain invisible characters'), 'name.err.invisible');
  assert.equal(createBody({ ...ok, name: '😀'.repeat(64) }, PRESETS, NOW).body.name.length, 128, '64 code points');
  assert.equal(createBody({ ...ok, name: 'a\u0007b' }, PRESETS, NOW).error, 'org.err.name');
  assert.equal(createBody({ ...ok, preset: 'easy' }, PRESETS, NOW).error, 'org.err.preset');
  assert.equal(createBody({ ...ok, opensIso: null }, PRESETS, NOW).error, 'org.err.opens');
  assert.equal(createBody({ ...ok, closesIso: null }, PRESETS, NOW).error, 'org.err.closes');
  assert.equal(createBody({ ...ok, closesIso: ok.opensIso }, PRESETS, NOW).error, 'org.err.order');
  // The server's limits, checked first in the form: an opening at most 60 s
  // past, a closing at most 366 days after it.
  const hour = 3600e3;
  const at = (ms) => new Date(ms).toISOString();
  assert.equal(createBody({ ...ok, opensIso: at(NOW - 2 * hour), closesIso: at(NOW + hour) }, PRESETS, NOW).error,
    'org.err.past');
  assert.ok(createBody({ ...ok, opensIso: at(NOW - 60e3), closesIso: at(NOW + hour) }, PRESETS, NOW).body,
    '60 s past is still accepted');
  assert.equal(createBody({ ...ok, opensIso: at(NOW - 61e3), closesIso: at(NOW + hour) }, PRESETS, NOW).error,
    'org.err.past');
  const opens = Date.parse(ok.opensIso);
  assert.ok(createBody({ ...ok, closesIso: at(opens + 366 * 24 * hour) }, PRESETS, NOW).body, '366 days');
  assert.equal(createBody({ ...ok, closesIso: at(opens + 366 * 24 * hour + 1) }, PRESETS, NOW).error,
    'org.err.tooLong');
  assert.equal(createBody({ ...ok, closesIso: at(opens + 400 * 24 * hour) }, PRESETS, NOW).error,
    'org.err.tooLong');
  // The server's refusals in the form's words; any other: null (the
  // translated fallback).
  assert.equal(createRefusalKey('opens_at is in the past'), 'org.err.past');
  assert.equal(createRefusalKey('closes_at must be after opens_at, at most 366 days later'), 'org.err.tooLong');
  assert.equal(createRefusalKey('could not save the competition'), null);
  assert.equal(createRefusalKey('toString'), null);
  for (const bad of ['0', '101', '2.5', '', '-1']) {
    assert.equal(createBody({ ...ok, attempts: bad }, PRESETS, NOW).error, 'org.err.attempts', bad);
  }
  assert.equal(createBody({ ...ok, attempts: '100' }, PRESETS, NOW).body.attempts, 100);
  assert.equal(createBody({ ...ok, counts: 'last' }, PRESETS, NOW).error, 'org.err.counts');
});

test('results rows: disqualified entries have no rank and keep their reason', () => {
  const rows = resultRows([
    { rank: 1, player: 'ann', score: 300, flags: [] },
    { rank: 2, player: 'bo', score: 200, flags: ['replay_failed', 'new_flag'] },
    { rank: null, player: 'cy', score: 900, flags: ['disqualified'], reason: 'two accounts' },
  ]);
  assert.deepEqual(rows.map((r) => [r.rank, r.disqualified]), [['1', false], ['2', false], ['–', true]]);
  assert.deepEqual(rows[1].flags, [{ key: 'comp.flag.replay_failed' }, { text: 'new_flag' }]);
  assert.equal(rows[2].reason, 'two accounts');
  assert.deepEqual(rows[2].flags, [{ key: 'comp.flag.disqualified' }]);
  assert.deepEqual(resultRows(null), []);
  assert.equal(resultsDigest([{ rank: null, player: 'cy', score: 9, flags: ['disqualified'] }]), '|cy|9|disqualified');
});

test('lists: organiser competitions first by opening, then the dailies in mode and preset order', () => {
  const list = [
    view({ id: 'd2', daily: true, mode: 'hidden', preset: 'classic', opens_at: '2026-11-24T00:00:00.000Z' }),
    view({ id: 'late', opens_at: '2026-11-24T11:00:00.000Z' }),
    view({ id: 'd1', daily: true, mode: 'same', preset: 'hard', opens_at: '2026-11-24T00:00:00.000Z' }),
    view({ id: 'd0', daily: true, mode: 'same', preset: 'easy', opens_at: '2026-11-24T00:00:00.000Z' }),
    view({ id: 'early', opens_at: '2026-11-24T09:00:00.000Z' }),
  ];
  assert.deepEqual(sortCompetitions(list, MODES, PRESETS).map((c) => c.id), ['early', 'late', 'd0', 'd1', 'd2']);
});

test('disqualification: a reason of 1-200 characters and the player\'s name typed again, before anything is sent', () => {
  assert.deepEqual(dqCheck('Max', '', 'Max'), { ok: false, error: 'dq.err.reason', reason: '', length: 0 });
  assert.equal(dqCheck('Max', '   ', 'Max').error, 'dq.err.reason', 'blank is no reason');
  assert.equal(dqCheck('Max', 'two\nlines', 'Max').error, 'dq.err.reason', 'no control characters');
  assert.equal(dqCheck('Max', 'x'.repeat(201), 'Max').error, 'dq.err.reason');
  // 200 code points, emoji counted once each (as the server counts).
  assert.equal(dqCheck('Max', '\u{1F600}'.repeat(200), 'Max').ok, true);
  assert.equal(dqCheck('Max', '\u{1F600}'.repeat(200), 'Max').length, 200);
  assert.equal(dqCheck('Max', 'shared colours', '').error, 'dq.err.name');
  assert.equal(dqCheck('Max', 'shared colours', 'max').error, 'dq.err.name', 'the name exactly');
  assert.equal(dqCheck('Max', 'shared colours', 'Ma').error, 'dq.err.name');
  assert.deepEqual(dqCheck('Max', '  shared colours ', ' Max '),
    { ok: true, error: null, reason: 'shared colours', length: 14 });
  assert.equal(dqCheck('日本 語', 'x', '日本 語').ok, true);
});
