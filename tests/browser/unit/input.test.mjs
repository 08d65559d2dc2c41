// The pure parts of keyboard play and refusals (issue 23): which key does
// what and where the cursor goes (web-client/js/keyboard.js), the text of a
// refusal from the server's code and message (refusals.js, every message
// protocol.md lists), and what the live region says after a reply
// (announce.js).

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyAction, moveCursor } from '../../../web-client/js/keyboard.js';
import { REFUSALS, refusalText } from '../../../web-client/js/refusals.js';
import { describeReply } from '../../../web-client/js/announce.js';
import { DICTS } from '../../../web-client/js/i18n.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');

test('keys: arrows move, Enter and Space activate, Escape cancels, P peeks', () => {
  assert.deepEqual(keyAction('ArrowLeft'), { type: 'move', dx: -1, dy: 0 });
  assert.deepEqual(keyAction('ArrowRight'), { type: 'move', dx: 1, dy: 0 });
  assert.deepEqual(keyAction('ArrowUp'), { type: 'move', dx: 0, dy: -1 });
  assert.deepEqual(keyAction('ArrowDown'), { type: 'move', dx: 0, dy: 1 });
  assert.deepEqual(keyAction('Enter'), { type: 'activate' });
  assert.deepEqual(keyAction(' '), { type: 'activate' });
  assert.deepEqual(keyAction('Escape'), { type: 'cancel' });
  assert.deepEqual(keyAction('p'), { type: 'peek' });
  assert.deepEqual(keyAction('P'), { type: 'peek' });
  assert.deepEqual(keyAction('Home'), { type: 'home' });
  assert.deepEqual(keyAction('End'), { type: 'end' });
  for (const k of ['Tab', 'a', 'Shift', 'F5', '', 'constructor', 'toString']) assert.equal(keyAction(k), null, k);
});

test('cursor: moves one cell, stops at the edges, Home and End', () => {
  const right = keyAction('ArrowRight');
  const left = keyAction('ArrowLeft');
  const up = keyAction('ArrowUp');
  const down = keyAction('ArrowDown');
  assert.deepEqual(moveCursor({ x: 0, y: 0 }, right, 3, 2), { x: 1, y: 0 });
  assert.deepEqual(moveCursor({ x: 2, y: 0 }, right, 3, 2), { x: 2, y: 0 });
  assert.deepEqual(moveCursor({ x: 0, y: 0 }, left, 3, 2), { x: 0, y: 0 });
  assert.deepEqual(moveCursor({ x: 0, y: 0 }, up, 3, 2), { x: 0, y: 0 });
  assert.deepEqual(moveCursor({ x: 1, y: 0 }, down, 3, 2), { x: 1, y: 1 });
  assert.deepEqual(moveCursor({ x: 1, y: 1 }, down, 3, 2), { x: 1, y: 1 });
  assert.deepEqual(moveCursor({ x: 1, y: 1 }, { type: 'home' }, 3, 2), { x: 0, y: 1 });
  assert.deepEqual(moveCursor({ x: 0, y: 1 }, { type: 'end' }, 3, 2), { x: 2, y: 1 });
  // A cursor left outside a smaller board (a new game) comes back onto it.
  assert.deepEqual(moveCursor({ x: 14, y: 11 }, { type: 'stay' }, 10, 10), { x: 9, y: 9 });
  assert.deepEqual(moveCursor(null, { type: 'stay' }, 10, 10), { x: 0, y: 0 });
});

test('refusals: every known server message has its own text, in English and Japanese', () => {
  for (const [code, messages] of Object.entries(REFUSALS)) {
    for (const [message, key] of Object.entries(messages)) {
      assert.deepEqual(refusalText({ code, message }), { key, vars: {} });
      assert.ok(DICTS.en[key], `en ${key}`);
      assert.ok(DICTS.ja[key], `ja ${key}`);
      assert.notEqual(DICTS.en[key], DICTS.ja[key], key);
    }
  }
  // The refusal texts of match3.cpp and same_game.cpp's examples.
  assert.equal(refusalText({ code: 'invalid_move', message: 'the swap makes no run' }).key, 'refuse.noRun');
  assert.equal(refusalText({ code: 'invalid_move', message: 'a single tile cannot be removed' }).key, 'refuse.single');
  assert.equal(refusalText({ code: 'not_allowed', message: 'the game is over' }).key, 'refuse.over');
  assert.equal(refusalText({ code: 'unauthorized', message: 'not your game' }).key, 'refuse.notYourGame');
});

test('refusals: an unknown message falls back to its code, an unknown code to the generic text', () => {
  assert.deepEqual(refusalText({ code: 'invalid_move', message: 'something new' }), { key: 'err.invalid_move', vars: {} });
  assert.deepEqual(refusalText({ code: 'not_allowed', message: 'the swap makes no run' }), { key: 'err.not_allowed', vars: {} });
  assert.deepEqual(refusalText({ code: 'invalid_move', message: 'toString' }), { key: 'err.invalid_move', vars: {} });
  assert.deepEqual(refusalText({ code: 'disconnected', message: 'not connected' }), { key: 'err.disconnected', vars: {} });
  assert.deepEqual(refusalText({ code: 'internal', message: 'storage unavailable' }),
    { key: 'err.generic', vars: { message: 'storage unavailable' } });
  assert.deepEqual(refusalText({ code: 'rate_limited' }), { key: 'err.generic', vars: { message: 'rate_limited' } });
  assert.deepEqual(refusalText(null), { key: 'err.generic', vars: { message: '' } });
});

test('refusals: the messages mapped are the ones protocol.md lists, and the game engine sends', () => {
  const protocol = fs.readFileSync(path.join(root, 'docs', 'protocol.md'), 'utf8');
  const sources = ['same_game.cpp', 'match3.cpp', 'hidden.cpp', 'game.cpp', 'undo_checkpoints.hpp']
    .map((f) => fs.readFileSync(path.join(root, 'game', 'src', f), 'utf8')).join('\n');
  const server = fs.readFileSync(path.join(root, 'server', 'src', 'play', 'game_commands.cpp'), 'utf8');
  for (const [code, messages] of Object.entries(REFUSALS)) {
    for (const message of Object.keys(messages)) {
      assert.ok(protocol.includes(`| ${code} | \`${message}\` |`), `protocol.md lists ${code} "${message}"`);
      assert.ok(sources.includes(`"${message}"`) || server.includes(`"${message}"`), `the server sends "${message}"`);
    }
  }
});

test('announcements: cells, score change and game over in one text', () => {
  const t = (k, vars = {}) => `${k}${Object.keys(vars).length ? JSON.stringify(vars) : ''}`;
  assert.equal(describeReply({ score: -1, events: [{ kind: 'peek', x: 1, y: 2, color: 3 },
    { kind: 'score', delta: -1, total: -1 }] }, 0, t),
  'say.peek{"col":2,"row":3,"colour":"kb.colour{\\"n\\":3,\\"shape\\":\\"shape.square\\"}"} say.score{"delta":"−1","total":"−1"}');
  assert.equal(describeReply({ score: 40, events: [{ kind: 'remove', cells: [[0, 0], [1, 0], [2, 0]], wave: 1 },
    { kind: 'remove', cells: [[0, 1], [1, 1], [2, 1]], wave: 2 }] }, 0, t),
  'say.removed{"n":6} say.score{"delta":"+40","total":"40"}');
  assert.equal(describeReply({ score: 5, events: [{ kind: 'select', x: 0, y: 0, color: 1 }] }, 5, t),
    'say.select{"col":1,"row":1,"colour":"kb.colour{\\"n\\":1,\\"shape\\":\\"shape.circle\\"}"}');
  assert.equal(describeReply({ score: 1004, events: [{ kind: 'remove', cells: [[0, 0], [0, 1], [0, 2]] },
    { kind: 'game_over', reason: 'cleared', bonus: 1000, final_score: 1004 }] }, 3, t),
  'say.removed{"n":3} say.score{"delta":"+1001","total":"1004"} say.over{"reason":"over.cleared","final":1004}');
  assert.equal(describeReply({ events: [] }, 7, t), '');
});

// A reason may end in its own punctuation ("Board cleared!"): the sentence
// around it must not add a second mark after it, in any language, for every
// reason protocol.md's game_over event lists.
test('announcements: the game over sentence reads cleanly with every reason', () => {
  const protocol = fs.readFileSync(path.join(root, 'docs', 'protocol.md'), 'utf8');
  const row = protocol.split('\n').find((line) => line.startsWith('| game_over |'));
  const reasons = [...row.split('`reason` (')[1].split(')')[0].matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.ok(reasons.includes('cleared') && reasons.length >= 5, reasons.join());
  for (const [lang, dict] of Object.entries(DICTS)) {
    const tl = (k, vars = {}) => dict[k].replace(/\{(\w+)\}/g, (m, name) => String(vars[name]));
    for (const reason of reasons) {
      const said = describeReply({ score: 9, events: [{ kind: 'game_over', reason, bonus: 0, final_score: 9 }] }, 9, tl);
      assert.ok(said.includes(dict[`over.${reason}`]), `${lang} ${reason}: ${said}`);
      assert.doesNotMatch(said, /[.!?。！？][.!?。！？:：]/, `${lang} ${reason}: ${said}`);
    }
  }
});
