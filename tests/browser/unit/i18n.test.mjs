// The message catalogues (web-client/js/lang/*.json, loaded by i18n.js as
// JSON modules): the same keys in every language, each a non-empty string,
// and a translation fills the same {placeholders} as the English text.

import test from 'node:test';
import assert from 'node:assert/strict';
import { DICTS, t, tn, playersText, formatGameTime } from '../../../web-client/js/i18n.js';

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every English string has a Japanese one and the other way round', () => {
  assert.deepEqual(Object.keys(DICTS.ja).sort(), Object.keys(DICTS.en).sort());
});

test('every string is a non-empty text and fills the same placeholders as the English one', () => {
  for (const [lang, dict] of Object.entries(DICTS)) {
    for (const [key, text] of Object.entries(dict)) {
      assert.equal(typeof text, 'string', `${lang} ${key}`);
      assert.notEqual(text.trim(), '', `${lang} ${key}`);
      assert.deepEqual(placeholders(text), placeholders(DICTS.en[key]), `${lang} ${key}`);
    }
  }
});

test('t() fills placeholders and leaves an unknown key as it is', () => {
  const text = t('archive.range', { from: 1, to: 20, total: 45 });
  for (const n of ['1', '20', '45']) assert.ok(text.includes(n), text);
  assert.doesNotMatch(text, /[{}]/);
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('a count of one takes the singular text where the catalogues have one', () => {
  assert.equal(tn('share.moves', 1, { n: 1 }), '1 move');
  assert.equal(tn('share.moves', 3, { n: 3 }), '3 moves');
  assert.equal(tn('player.games', 1, { n: 1 }), '1 game played');
  assert.equal(tn('player.games', 0, { n: 0 }), '0 games played');
  assert.equal(playersText(1), '1 player');
  assert.equal(playersText(2), '2 players');
  // No singular text: the key's own.
  assert.equal(tn('say.removed', 1, { n: 1 }), t('say.removed', { n: 1 }));
  // Every singular key has its plural beside it.
  for (const key of Object.keys(DICTS.en).filter((k) => /[a-z]1$/i.test(k))) {
    assert.ok(key.slice(0, -1) in DICTS.en, key);
  }
});

test('a right-to-left name is isolated in a sentence; other names and numbers are left as they are', () => {
  assert.equal(t('archive.winner', { player: 'מנצח שני', score: 277 }), 'Winner: \u2068מנצח שני\u2069 (277)');
  assert.equal(t('archive.winner', { player: 'Sunny', score: 500 }), 'Winner: Sunny (500)');
  assert.equal(t('account.signedIn', { name: 'علي' }), 'You play as \u2068علي\u2069 on this device.');
  // Only names: a score or a count is never wrapped.
  assert.equal(t('say.removed', { n: 3 }), '3 tiles removed.');
});

test('a game time shows tenths where time breaks ties (hidden colours), floored like the seconds', () => {
  assert.equal(formatGameTime(2430), '0:02');
  assert.equal(formatGameTime(2430, { tenths: true }), '0:02.4');
  assert.equal(formatGameTime(2999, { tenths: true }), '0:02.9');
  assert.equal(formatGameTime(3723050, { tenths: true }), '1:02:03.0');
  assert.equal(formatGameTime(0, { tenths: true }), '0:00.0');
});

test('a peek is said with the tile\'s shape, and a negative score with a real minus sign', async () => {
  const { describeReply } = await import('../../../web-client/js/announce.js');
  assert.equal(describeReply({ score: -1, events: [{ kind: 'peek', x: 1, y: 2, color: 3 }] }, 0, t),
    'Peeked column 2, row 3: square, colour 3. Score −1, now −1.');
  assert.equal(t('kb.colour', { n: 12, shape: t('shape.crescent') }), 'crescent, colour 12');
});
