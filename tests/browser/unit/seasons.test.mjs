// The Seasons page's pure logic (web-client/js/seasons/logic.js): its
// address, a period's label in both languages, the time left.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  seasonsUrl, validPeriod, realPeriod, parsePeriod, periodLabel, timeLeft, timeLeftText,
} from '../../../web-client/js/seasons/logic.js';
import { DICTS } from '../../../web-client/js/i18n.js';

const tr = (lang) => (k, vars = {}) => DICTS[lang][k].replace(/\{(\w+)\}/g, (m, n) => String(vars[n]));

test('periods: weeks and months by name', () => {
  assert.ok(validPeriod('2026-W48'));
  assert.ok(validPeriod('2026-11'));
  assert.ok(!validPeriod('2026-w48'));
  assert.ok(!validPeriod('latest'));
  assert.deepEqual(parsePeriod('2026-W05'), { kind: 'week', year: 2026, number: 5 });
  assert.deepEqual(parsePeriod('2026-11'), { kind: 'month', year: 2026, number: 11 });
  assert.equal(periodLabel('2026-W48', tr('en')), 'Week 48, 2026');
  assert.equal(periodLabel('2026-11', tr('en')), 'November 2026');
  assert.equal(periodLabel('2026-11', tr('ja')), '2026年11月');
  assert.equal(periodLabel('2026-W48', tr('ja')), '2026年 第48週');
});

test('periods the server has: weeks that exist, months 1-12, from 2000', () => {
  for (const p of ['2026-W01', '2026-W48', '2026-W53', '2020-W53', '2015-W53', '2004-W53', '2026-01', '2026-12', '2000-01', '9999-12']) {
    assert.ok(realPeriod(p), p);
  }
  // 2021 and 2027 have 52 ISO weeks (they start on a Friday).
  for (const p of ['2026-W99', '2026-W00', '2021-W53', '2027-W53', '2026-00', '2026-13', '1999-12', '1999-W10', 'latest', '']) {
    assert.ok(!realPeriod(p), p);
  }
});

test('the address keeps only what is set', () => {
  assert.equal(seasonsUrl({ mode: 'same' }), '/?view=seasons&mode=same');
  assert.equal(seasonsUrl({ mode: 'hidden', period: '2026-W48', offset: 20 }),
    '/?view=seasons&mode=hidden&period=2026-W48&offset=20');
  assert.equal(seasonsUrl({ mode: 'same', period: '2026-11', around: true }),
    '/?view=seasons&mode=same&period=2026-11&around=1');
});

test('time left', () => {
  assert.deepEqual(timeLeft(2 * 86400 + 3 * 3600 + 59), { days: 2, hours: 3, minutes: 0 });
  assert.deepEqual(timeLeft(-5), { days: 0, hours: 0, minutes: 0 });
  assert.equal(timeLeftText(2 * 86400 + 3 * 3600, tr('en')), 'Ends in 2 d 3 h');
  assert.equal(timeLeftText(3 * 3600 + 7 * 60, tr('en')), 'Ends in 3 h 7 min');
  assert.equal(timeLeftText(3 * 3600 + 7 * 60, tr('ja')), '残り 3時間 7分');
});
