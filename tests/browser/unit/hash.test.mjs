// state_hash (protocol.md): FNV-1a 64 over the visible board bytes (hidden
// -1 as 255), then move_count and score as 8-byte little-endian signed.
// Expected values are the published FNV-1a test vectors, a by-hand
// expansion of the definition, and values printed by the engine's C++
// implementation (game/src/hash.cpp) for the same inputs.

import test from 'node:test';
import assert from 'node:assert/strict';
import { fnv1a64, stateHash } from '../../../web-client/js/hash.js';

test('FNV-1a 64 matches the published vectors', () => {
  assert.equal(fnv1a64([]).toString(16), 'cbf29ce484222325');
  assert.equal(fnv1a64([...Buffer.from('a')]).toString(16), 'af63dc4c8601ec8c');
  assert.equal(fnv1a64([...Buffer.from('foobar')]).toString(16), '85944171f73967e8');
});

test('one byte by hand: (offset ^ byte) * prime mod 2^64', () => {
  const expected = ((0xcbf29ce484222325n ^ 1n) * 0x100000001b3n) & 0xffffffffffffffffn;
  assert.equal(fnv1a64([1]), expected);
});

test('empty board, move 0, score 0: sixteen zero bytes', () => {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < 16; i++) h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  assert.equal(stateHash([], 0, 0), h.toString(16).padStart(16, '0'));
  assert.equal(stateHash([], 0, 0), '88201fb960ff6465');
});

test('board bytes, then move_count and score little-endian', () => {
  // Bytes: 01 02 03 00 | 01 00.. (move_count 1) | 04 00.. (score 4)
  const bytes = [1, 2, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0];
  const expected = fnv1a64(bytes).toString(16).padStart(16, '0');
  assert.equal(stateHash([[1, 2], [3, 0]], 1, 4), expected);
  assert.equal(expected, '0ebd015159f47e14');
});

test('hidden cells hash as 255 and a negative score as two\'s complement', () => {
  const bytes = [255, 0, 255, 2, 3, 255, 7, 0, 0, 0, 0, 0, 0, 0,
    0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  assert.equal(stateHash([[-1, 0, -1], [2, 3, -1]], 7, -3), fnv1a64(bytes).toString(16).padStart(16, '0'));
  assert.equal(stateHash([[-1, 0, -1], [2, 3, -1]], 7, -3), '7195d60dc31a3ef4');
});

test('large counters and colours up to 12 (engine values)', () => {
  assert.equal(stateHash([[12, 11, 10], [9, 8, 7], [6, 5, 4]], 123456789012, 1000), '87ca88802426e427');
});

test('always 16 lowercase hex digits', () => {
  for (const [rows, m, s] of [[[[0]], 0, 0], [[[5, 5]], 3, 99], [[[-1]], 1, -1]]) {
    assert.match(stateHash(rows, m, s), /^[0-9a-f]{16}$/);
  }
});
