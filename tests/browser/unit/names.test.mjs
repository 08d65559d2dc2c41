// A name people see must show something (web-client/js/names.js), as the
// server checks it (protocol.md, "Fields"; tests/protocol/parser_errors_test.cpp
// holds the same cases).

import test from 'node:test';
import assert from 'node:assert/strict';
import { nameProblem, NAME_PROBLEM_KEYS } from '../../../web-client/js/names.js';
import { DICTS } from '../../../web-client/js/i18n.js';

test('names that show nothing, or hold an invisible look-alike, are refused before asking', () => {
  for (const name of ['   ', '\u00A0', '\u3000', '\u2800', '\u200D']) {
    assert.equal(nameProblem(name), 'nothingVisible', JSON.stringify(name));
  }
  for (const name of ['\u200B\u200B', 'Kim\u200B', '\u202EAda', 'A\u00ADda', 'Ada\uFEFF', '\u3164', '\u200B']) {
    assert.equal(nameProblem(name), 'invisible', JSON.stringify(name));
  }
});

test('names that show, with their spaces and joiners, are names', () => {
  for (const name of ['Ada Lovelace', ' Ada', 'Zoé', 'می\u200Cخواهم', '👩\u200D💻', '❤\uFE0F', '\u00A0x', '<b>']) {
    assert.equal(nameProblem(name), null, JSON.stringify(name));
  }
});

test('each problem has its text in both languages', () => {
  for (const key of Object.values(NAME_PROBLEM_KEYS)) {
    for (const lang of Object.keys(DICTS)) assert.ok(DICTS[lang][key], `${lang}: ${key}`);
  }
});
