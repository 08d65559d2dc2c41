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

test('one point, one move and one peek are singular', () => {
  const one = { title: 'Daily', score: 1, moveCount: 1, peeks: 1, elapsedMs: null, rank: null, total: null,
    trail: null, url: null };
  assert.equal(shareText(one, tr('en')), 'tilecrush · Daily\n1 point\n1 move · 1 peek');
  assert.equal(shareText({ ...one, score: 0, moveCount: 2, peeks: 0 }, tr('en')),
    'tilecrush · Daily\n0 points\n2 moves · 0 peeks');
  assert.equal(shareText(one, tr('ja')), 'tilecrush · Daily\n1点\n1手 · のぞき1回');
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
  assert.deepEqual(changeSince({ rank: 2, score: 885 }, { rank: 5, score: 760 }), { score: 125 });
  assert.equal(changeSince(null, { rank: 1, score: 1 }), null);
  assert.equal(signed(125), '+125');
  assert.equal(signed(-40), '−40');
  assert.equal(signed(0), '±0');
  assert.equal(clock(3723000), '1:02:03');
});

// A stub of the server's public API for the Yesterday card: the archive's
// dailies and a player's history, `pages` of it, each `size` games long.
function stubApi({ pages = 1, reachesYesterday = true } = {}) {
  const seen = [];
  const json = (status, body) => ({ ok: status < 400, status, statusText: String(status), json: async () => body });
  const daily = (mode, preset, entries, winner) => ({
    id: `daily-2026-11-24-${mode}-${preset}`, mode, preset, seed: '2026-11-24', daily: true, state: 'closed',
    entries, winner });
  globalThis.window = { location: { origin: 'http://127.0.0.1:1' } };
  globalThis.fetch = async (url) => {
    const u = new URL(url);
    seen.push(u.pathname + u.search);
    if (u.pathname === '/api/archive') {
      assert.equal(u.searchParams.get('kind'), 'daily');
      // Latest close first, equal closes by id descending; an older day after.
      return json(200, { competitions: [
        daily('same', 'hard', 0, null), daily('same', 'easy', 12, { player: 'Ada', score: 980 }),
        daily('hidden', 'classic', 3, { player: 'Bo', score: 700 }),
        { ...daily('same', 'easy', 5, null), id: 'daily-2026-11-23-same-easy', seed: '2026-11-23' }],
      next: null });
    }
    if (u.pathname === '/api/players/Zo%C3%A9/games') {
      const page = Number(u.searchParams.get('before') || 0);
      const game = (id, entry, rank, finished) => ({ game_id: `g${id}`, competition: id.startsWith('daily')
        ? { id, daily: true, closed: true } : null, ranked: true, entry, rank, field: 12, score: 410,
      finished_at: finished });
      const today = '2026-11-25T08:00:00.000Z';
      if (page + 1 < pages) return json(200, { games: [game('casual', true, 1, today)], next: String(page + 1) });
      return json(200, { games: reachesYesterday ? [
        game('daily-2026-11-24-same-easy', false, 5, '2026-11-24T09:00:00.000Z'),
        game('daily-2026-11-24-same-easy', true, 3, '2026-11-24T08:00:00.000Z'),
        game('daily-2026-11-23-same-easy', true, 1, '2026-11-23T08:00:00.000Z')] : [game('casual', true, 1, today)],
      next: reachesYesterday ? null : String(page + 1) });
    }
    if (u.pathname.endsWith('/leaderboard/around')) {
      return u.pathname.includes('same-easy')
        ? json(200, { total: 12, entries: [{ rank: 3, player: 'Zoé', score: 410 }] })
        : json(404, { error: { code: 'not_found', message: 'not on it' } });
    }
    return json(404, {});
  };
  return seen;
}

test("yesterday's card: the day's boards in /api/daily's order, each winner and the player's place", async () => {
  const seen = stubApi();
  const { loadYesterday } = await import('../../../web-client/js/standing/yesterday.js');
  const data = await loadYesterday('2026-11-25', 'Zoé', 'tok');
  assert.equal(data.date, '2026-11-24');
  assert.deepEqual(data.boards.map((b) => [b.competition, b.total, b.winner, b.mine]), [
    ['daily-2026-11-24-same-easy', 12, { player: 'Ada', score: 980 }, { rank: 3, score: 410, total: 12 }],
    ['daily-2026-11-24-same-hard', 0, null, null],
    ['daily-2026-11-24-hidden-classic', 3, { player: 'Bo', score: 700 }, null],
  ]);
  // Two requests, and no board asked about alone.
  assert.deepEqual(seen, ['/api/archive?limit=20&kind=daily', '/api/players/Zo%C3%A9/games?limit=100']);
  delete globalThis.window;
  delete globalThis.fetch;
});

test("yesterday's card: a history too long to read back to yesterday asks the boards alone", async () => {
  const seen = stubApi({ pages: 5, reachesYesterday: false });
  const { loadYesterday } = await import('../../../web-client/js/standing/yesterday.js');
  const data = await loadYesterday('2026-11-25', 'Zoé', null);
  assert.deepEqual(data.boards.map((b) => b.mine),
    [{ rank: 3, score: 410, total: 12 }, null, null]);
  assert.equal(seen.filter((p) => p.startsWith('/api/players/')).length, 3);
  assert.equal(seen.filter((p) => p.endsWith('/leaderboard/around?player=Zo%C3%A9&radius=0')).length, 3);
  delete globalThis.window;
  delete globalThis.fetch;
});

test("yesterday's card: no dailies that day, no card and no history read", async () => {
  const seen = stubApi();
  const { loadYesterday } = await import('../../../web-client/js/standing/yesterday.js');
  const data = await loadYesterday('2026-11-27', 'Zoé', null);
  assert.deepEqual(data, { date: '2026-11-26', boards: [] });
  assert.deepEqual(seen, ['/api/archive?limit=20&kind=daily']);
  delete globalThis.window;
  delete globalThis.fetch;
});
