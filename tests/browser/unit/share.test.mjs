// Where a finished game stands (web-client/js/standing/share.js): the
// emoji strip, the share text (which must never carry a cell position or a
// colour), the daily ids and dates, and the time to the next daily.

import test from 'node:test';
import assert from 'node:assert/strict';
import {
  emojiStrip, shareText, parseDailyId, dailyId, shiftDate, utcDate, secondsToNextDaily, changeSince, signed, clock,
  STRIP_SQUARES,
} from '../../../web-client/js/standing/share.js';
import { DICTS } from '../../../web-client/js/i18n.js';

// t() of i18n.js over one dictionary, without the browser's storage.
const tr = (lang) => (key, vars = {}) => DICTS[lang][key].replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));

test('the strip has one square per tenth of the moves, shaded by the points earned there', () => {
  // 20 moves: the first 10 earn nothing, then 1 point each, the last two 10 each.
  const trail = [];
  let s = 0;
  for (let i = 0; i < 20; i += 1) {
    s += i < 10 ? 0 : i < 18 ? 1 : 10;
    trail.push(s);
  }
  const strip = emojiStrip(trail);
  assert.equal([...strip].length, STRIP_SQUARES);
  assert.equal(strip, '⬜⬜⬜⬜⬜🟨🟨🟨🟨🟥');
});

test('a short game gets one square per move; peeks (negative deltas) earn nothing', () => {
  assert.equal(emojiStrip([-1, -2, 28]), '⬜⬜🟥');
  assert.equal(emojiStrip([]), null);
  assert.equal(emojiStrip(null), null);
  assert.equal(emojiStrip([0, 0, 0]), '⬜⬜⬜');
  assert.equal(emojiStrip([2, 1002], { cleared: true }), '🟨🟥🏁');
});

test('the share text holds totals, the rank and the link, and nothing of the board', () => {
  const text = shareText({
    title: 'Daily Hidden colours · Classic · 2026-11-25', score: 885, moveCount: 208, peeks: 14, elapsedMs: 214870,
    rank: 2, total: 37, trail: Array.from({ length: 208 }, (_, i) => i * 4), url: 'http://127.0.0.1:8080/?view=competition&id=daily-2026-11-25-hidden-classic',
  }, tr('en'));
  const lines = text.split('\n');
  assert.equal(lines[0], 'tilecrush · Daily Hidden colours · Classic · 2026-11-25');
  assert.equal(lines[1], '885 points · #2 of 37');
  assert.equal([...lines[2]].length, STRIP_SQUARES);
  assert.equal(lines[3], '208 moves · 14 peeks · 3:34');
  assert.equal(lines[4], 'http://127.0.0.1:8080/?view=competition&id=daily-2026-11-25-hidden-classic');
  // Below the title, the only numbers are the totals: no coordinates, no
  // colour numbers in order.
  const numbers = lines.slice(1, 4).join('\n').match(/\d+/g).map(Number);
  assert.deepEqual(numbers, [885, 2, 37, 208, 14, 3, 34]);
});

test('without a rank or a trail the text still reads, in Japanese too', () => {
  const text = shareText({ title: 'デイリー', score: 40, moveCount: 3, peeks: null, elapsedMs: null, rank: null,
    total: null, trail: null, url: null }, tr('ja'));
  assert.equal(text, 'tilecrush · デイリー\n40点\n3手');
});

test('daily ids and dates', () => {
  assert.deepEqual(parseDailyId('daily-2026-11-25-match3-classic'), { date: '2026-11-25', mode: 'match3', preset: 'classic' });
  assert.equal(parseDailyId('k7qm3xw9tbfp'), null);
  assert.equal(parseDailyId(null), null);
  assert.equal(dailyId('2026-11-24', 'same', 'easy'), 'daily-2026-11-24-same-easy');
  assert.equal(shiftDate('2026-03-01', -1), '2026-02-28');
  assert.equal(shiftDate('2028-03-01', -1), '2028-02-29');
  assert.equal(shiftDate('2026-12-31', 1), '2027-01-01');
  assert.equal(utcDate(Date.UTC(2026, 10, 25, 23, 59, 59)), '2026-11-25');
});

test('the next daily opens at 00:00 UTC', () => {
  assert.equal(secondsToNextDaily(Date.UTC(2026, 10, 25, 23, 59, 0)), 60);
  assert.equal(secondsToNextDaily(Date.UTC(2026, 10, 25, 0, 0, 0)), 86400);
  assert.equal(secondsToNextDaily(Date.UTC(2026, 10, 25, 12, 0, 0, 500)), 43200);
});

test('the change since yesterday, and signed numbers', () => {
  assert.deepEqual(changeSince({ rank: 2, score: 885 }, { rank: 5, score: 760 }), { score: 125, places: 3 });
  assert.equal(changeSince(null, { rank: 1, score: 1 }), null);
  assert.equal(signed(125), '+125');
  assert.equal(signed(-40), '−40');
  assert.equal(signed(0), '±0');
  assert.equal(clock(3723000), '1:02:03');
});

test("yesterday's card data: each board's winner and the player's place, from the public API", async () => {
  globalThis.window = { location: { origin: 'http://127.0.0.1:1' } };
  const seen = [];
  globalThis.fetch = async (url) => {
    const u = new URL(url);
    seen.push(u.pathname + u.search);
    const json = (status, body) => ({ ok: status < 400, status, statusText: String(status), json: async () => body });
    if (u.pathname === '/api/daily') {
      assert.equal(u.searchParams.get('date'), '2026-11-24');
      return json(200, { date: '2026-11-24', boards: [
        { mode: 'hidden', preset: 'classic', seed: '2026-11-24', competition: 'daily-2026-11-24-hidden-classic' },
        { mode: 'same', preset: 'easy', seed: '2026-11-24', competition: 'daily-2026-11-24-same-easy' }] });
    }
    if (u.pathname.endsWith('/leaderboard/around')) {
      assert.equal(u.searchParams.get('player'), 'Zoé');
      if (u.pathname.includes('same-easy')) {
        return json(200, { total: 12, entries: [{ rank: 3, player: 'Zoé', score: 410 }] });
      }
      return json(404, { error: { code: 'not_found', message: 'no such entry' } });
    }
    if (u.pathname.endsWith('/leaderboard')) {
      return u.pathname.includes('same-easy')
        ? json(200, { total: 12, entries: [{ rank: 1, player: 'Ada', score: 980 }] })
        : json(200, { total: 0, entries: [] });
    }
    return json(404, {});
  };
  const { loadYesterday } = await import('../../../web-client/js/standing/yesterday.js');
  const data = await loadYesterday('2026-11-25', 'Zoé');
  assert.equal(data.date, '2026-11-24');
  assert.deepEqual(data.boards.map((b) => [b.mode, b.winner, b.mine]), [
    ['same', { player: 'Ada', score: 980 }, { rank: 3, score: 410, total: 12 }],
    ['hidden', null, null],
  ]);
  assert.ok(seen.includes('/api/daily?date=2026-11-24'));
  delete globalThis.window;
  delete globalThis.fetch;
});
