// Which match-3 games show Undo (web-client/js/modes/match3.js): practice
// boards only, as the server allows it (rules.md, Match-3).

import test from 'node:test';
import assert from 'node:assert/strict';
import { undoAllowed } from '../../../web-client/js/modes/match3.js';

const commitment = 'ab'.repeat(32);

test('a practice board (custom size or a practice option) offers undo', () => {
  assert.equal(undoAllowed({ ranked: false, commitment: null, competition: null }), true);
});

test('a ranked game does not', () => {
  assert.equal(undoAllowed({ ranked: true, commitment, competition: null }), false);
  assert.equal(undoAllowed({ ranked: true, commitment: null, competition: null }), false);  // rules version 1
});

test('practice on a daily or competition board does not: the board is a ranked one', () => {
  assert.equal(undoAllowed({ ranked: false, commitment, competition: 'daily-match3-classic-2026-11-28' }), false);
});
