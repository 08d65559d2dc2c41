// History (issue 24): a player finishes three games (one in an organiser's
// competition that closes 20 seconds later, then two casual ones) and finds
// them from "My games": newest first, paged two by two with Older / Newer,
// and today marked played (3 games) on the calendar. Another player's view
// of that page shows nothing while the competition is open, and only its
// game once it has closed; the calendar alike. Screenshots go to $HISTORY_SHOTS
// when it is set.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { browserSuite, withPage, testid, playLargestGroups, waitIdle, skipWithoutOrganisers } from '../lib/harness.mjs';
import { playAttemptAndGiveUp } from '../lib/moves.mjs';

const shots = process.env.HISTORY_SHOTS;

async function shoot(page, name) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

async function finishOne(page, url) {
  await page.goto(`${page.base}${url}`);
  await waitIdle(page);
  await playLargestGroups(page, assert, 1);
  await page.click(testid('btn-resign'));
  if (await page.locator(testid('confirm-ok')).count()) await page.click(testid('confirm-ok'));
  await page.locator(testid('standing-rank')).waitFor();
}

const rows = (page) => page.$$eval('[data-testid="history-row"]', (trs) => trs.map((tr) => tr.dataset.game));

browserSuite('History: my games and the days I played', (env) => {
  test('own games newest first, paged, on the calendar; others see closed boards only', async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    const token = env.server.organisers.org1;
    const owner = `hist${Date.now() % 100000}`;
    let compId = null;
    let closesAt = 0;
    let games = [];
    await withPage(t, env, { name: owner, viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${page.base}/?view=competitions`);
      const created = await page.evaluate(async ([tok, body]) => {
        const res = await fetch('/api/competitions', { method: 'POST', body: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tok}` } });
        return res.json();
      }, [token, { name: 'History cup', mode: 'same', preset: 'easy', opens_at: new Date().toISOString(),
        closes_at: new Date(Date.now() + 20000).toISOString(), attempts: null, counts: 'best', unlisted: false }]);
      compId = created.id;
      closesAt = Date.parse(created.closes_at);
      await page.goto(`${page.base}/?view=competition&id=${compId}`);
      await playAttemptAndGiveUp(page, 1);
      await page.locator(testid('standing-rank')).waitFor();

      // Another player, while the competition is open: nothing to see.
      await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (other) => {
        await other.goto(`${other.base}/?view=player&name=${owner}`);
        await other.locator(testid('history-empty')).waitFor();
        assert.equal(await other.textContent('#history-title'), 'Games on closed boards');
        await other.locator(testid('calendar-summary')).waitFor();
        assert.equal(await other.locator('[data-testid="calendar-day"].played').count(), 0);
        assert.ok(Date.now() < closesAt, 'checked before the close');
        assert.deepEqual(other.errors, []);
      });

      await finishOne(page, '/?mode=same&preset=easy&seed=hist-a');
      await finishOne(page, '/?mode=same&preset=easy&seed=hist-b');

      // "My games" in the header leads to the history.
      await page.click(testid('nav-my-games'));
      await page.locator(testid('history-row')).first().waitFor();
      assert.equal(await page.textContent('#history-title'), 'My games');
      games = await rows(page);
      assert.equal(games.length, 3);
      const boards = await page.$$eval('[data-testid="history-board"]', (els) => els.map((e) => e.textContent));
      assert.deepEqual(boards, ['hist-b', 'hist-a', 'History cup'], 'newest first');
      assert.deepEqual(await page.$$eval('[data-testid="history-rank"]', (els) => els.map((e) => e.textContent)),
        ['#1 of 1', '#1 of 1', '#1 of 1']);
      const today = new Date().toISOString().slice(0, 10);
      const cell = page.locator(`[data-testid="calendar-day"][data-date="${today}"]`);
      await cell.waitFor();
      assert.equal(await cell.getAttribute('data-games'), '3');
      assert.equal(await cell.getAttribute('aria-current'), 'date');
      assert.match(await cell.getAttribute('title'), /3 games, today$/);
      // The player joined this month: there is nothing to page back to.
      assert.ok(await page.locator(testid('calendar-prev')).isDisabled());
      assert.ok(await page.locator(testid('calendar-next')).isDisabled());
      await shoot(page, 'history-own-1280');

      // Two by two: Older, then Newer.
      await page.goto(`${page.base}/?view=player&name=${owner}&limit=2`);
      await page.locator(testid('history-row')).first().waitFor();
      assert.deepEqual(await rows(page), games.slice(0, 2));
      assert.ok(await page.locator(testid('history-newer')).isDisabled());
      await page.click(testid('history-older'));
      await page.waitForFunction(() => document.querySelector('[data-testid="history-page"]').textContent === 'Page 2');
      assert.deepEqual(await rows(page), games.slice(2));
      assert.ok(await page.locator(testid('history-older')).isDisabled());
      await page.click(testid('history-newer'));
      await page.waitForFunction(() => document.querySelector('[data-testid="history-page"]').textContent === 'Page 1');
      assert.deepEqual(await rows(page), games.slice(0, 2));
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(page, 'history-own-390');
      assert.deepEqual(page.errors, []);
    });

    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      // After the close: the competition's game only, on the list and the calendar.
      await page.waitForTimeout(Math.max(0, closesAt - Date.now() + 300));
      await page.goto(`${page.base}/?view=player&name=${owner}`);
      await page.locator(testid('history-row')).first().waitFor();
      assert.deepEqual(await rows(page), [games[2]]);
      assert.equal(await page.textContent(testid('history-board')), 'History cup');
      assert.equal(await page.locator(testid('history-replay')).count(), 1);
      const today = new Date().toISOString().slice(0, 10);
      const cell = page.locator(`[data-testid="calendar-day"][data-date="${today}"]`);
      await cell.waitFor();
      assert.equal(await cell.getAttribute('data-games'), '1');
      await shoot(page, 'history-other-390');
      assert.deepEqual(page.errors, []);
    });
  });

  test('a new player sees the empty states, in Japanese too', async (t) => {
    await withPage(t, env, { lang: 'ja', viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${page.base}/`);
      await page.click(testid('nav-my-games'));
      await page.locator(testid('history-empty')).waitFor();
      assert.equal(await page.textContent('#history-title'), '自分のゲーム');
      assert.match(await page.textContent(testid('history-empty')), /まだ終わったゲームはありません/);
      await page.locator(testid('calendar-summary')).waitFor();
      assert.equal(await page.textContent(testid('calendar-summary')), '今月はまだ遊んでいません。');
      await shoot(page, 'history-empty-ja-390');
      assert.deepEqual(page.errors, []);
    });
  });
}, { organisers: ['org1'] });
