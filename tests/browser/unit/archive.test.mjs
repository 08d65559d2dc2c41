// The Archive's pure logic (web-client/js/archive/logic.js): the day a
// closed board belongs to, grouping pages by day, and its addresses.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  closeDay, groupByDay, practiceUrl, archiveUrl, isClosedPractice, dayOrder,
} from '../../../web-client/js/archive/logic.js';

const board = (id, closes, extra = {}) => ({ id, mode: 'same', preset: 'classic', closes_at: closes, ...extra });

test('a close at midnight UTC ends the day before', () => {
  assert.equal(closeDay(board('a', '2026-11-25T00:00:00.000Z')), '2026-11-24');
  assert.equal(closeDay(board('b', '2026-11-24T18:30:00.000Z')), '2026-11-24');
  assert.equal(closeDay(board('c', '2026-11-24T00:00:00.001Z')), '2026-11-24');
  assert.equal(closeDay(board('d', 'nonsense')), '');
});

test('pages group by day, a day going on across pages', () => {
  const first = groupByDay([board('a', '2026-11-25T00:00:00.000Z'), board('b', '2026-11-24T12:00:00.000Z'),
    board('c', '2026-11-24T00:00:00.000Z')]);
  assert.deepEqual(first.map((g) => [g.day, g.boards.map((x) => x.id)]), [['2026-11-24', ['a', 'b']], ['2026-11-23', ['c']]]);
  const more = groupByDay([board('d', '2026-11-23T10:00:00.000Z'), board('e', '2026-11-20T10:00:00.000Z')], first);
  assert.deepEqual(more.map((g) => [g.day, g.boards.map((x) => x.id)]),
    [['2026-11-24', ['a', 'b']], ['2026-11-23', ['c', 'd']], ['2026-11-20', ['e']]]);
  assert.deepEqual(groupByDay([]), []);
});

test('addresses: practice on a board, the archive', () => {
  assert.equal(practiceUrl(board('daily-2026-11-24-same-classic', '')),
    '/?mode=same&preset=classic&competition=daily-2026-11-24-same-classic');
  assert.equal(archiveUrl(), '/?view=archive');
  assert.equal(archiveUrl({ mode: 'match3' }), '/?view=archive&mode=match3');
  assert.equal(archiveUrl({ mode: 'chess' }), '/?view=archive');
});

test('practice on a closed board is told apart from an attempt', () => {
  const comp = { id: 'x1', state: 'closed' };
  assert.equal(isClosedPractice({ competition: 'x1', ranked: false, attempt: null }, comp), true);
  assert.equal(isClosedPractice({ competition: 'x1', ranked: true, attempt: 1 }, comp), false);
  assert.equal(isClosedPractice({ competition: 'x1', ranked: false, attempt: 0 }, comp), false);
  assert.equal(isClosedPractice({ competition: 'x1', ranked: false, attempt: null }, { id: 'x1', state: 'open' }), false);
  assert.equal(isClosedPractice(null, comp), false);
});

test('a day\'s boards: the latest close first, the dailies of one close by mode and preset as home gives them', () => {
  const midnight = '2026-11-25T00:00:00.000Z';
  const boards = [
    { id: 'a', mode: 'same', preset: 'normal', closes_at: midnight },
    { id: 'b', mode: 'same', preset: 'hard', closes_at: midnight },
    { id: 'c', mode: 'same', preset: 'easy', closes_at: midnight },
    { id: 'd', mode: 'hidden', preset: 'classic', closes_at: midnight },
    { id: 'e', mode: 'match3', preset: 'crush', closes_at: midnight },
    { id: 'f', mode: 'match3', preset: 'classic', closes_at: midnight },
    { id: 'org', mode: 'hidden', preset: 'large', closes_at: '2026-11-24T21:30:00.000Z' },
    { id: 'late', mode: 'same', preset: 'classic', closes_at: '2026-11-25T00:00:00.001Z' },
  ];
  assert.deepEqual(dayOrder(boards).map((c) => c.id), ['late', 'c', 'a', 'b', 'f', 'e', 'd', 'org']);
  assert.equal(boards[0].id, 'a', 'the list given is left as it was');
});
