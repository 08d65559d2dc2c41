// Game over says where I stand: two players finish today's Same Game
// (easy) daily; each game-over panel gives the player's place in the field
// ("#1 of 2"), the best over the mode and preset, yesterday's daily (not
// played on a fresh server), the time to the next daily, and a share text
// that holds totals only: no cell position, no colour. The home page's
// row of that daily then gives the player's place; its
// "Yesterday" card stays hidden while the server has no dailies of that day.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, playLargestGroups, playSameToEnd, uniqueName, giveUp } from '../lib/harness.mjs';

async function playDaily(page, mode, preset) {
  await page.goto(`${page.base}/`);
  const row = page.locator(`[data-testid="daily-board"][data-mode="${mode}"][data-preset="${preset}"]`);
  await row.waitFor();
  await row.locator(testid('daily-play')).click();
  await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
}

browserSuite('Game over: where you stand, and sharing without spoiling', (env) => {
  test('the panel gives the place, the bests, the next daily and a share text without the board', async (t) => {
    // A first player resigns after two moves: a low score in the field.
    await withPage(t, env, { viewport: { width: 1280, height: 860 } }, async (page) => {
      await playDaily(page, 'same', 'easy');
      // On a desktop the board leaves room for the buttons under it: Give up
      // is on screen without scrolling, below the daily's line and the HUD.
      const giveUp = await page.locator(testid('btn-resign')).boundingBox();
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      assert.ok(giveUp.y + giveUp.height <= 860, `Give up ends at y=${giveUp.y + giveUp.height}, below the window`);
      await playLargestGroups(page, assert, 2);
      await page.click(testid('btn-resign'));
      // Giving up a running attempt asks first (rules.md, "Attempts").
      await page.click(testid('confirm-ok'));
      await page.locator(testid('standing-rank')).waitFor();
      assert.equal(await page.textContent(testid('standing-rank')), 'Your place on this board: #1 of 1');
      assert.equal(await page.locator(testid('share-text')).count(), 1);
      // Another attempt given up before its first move: nothing to share.
      await page.click(testid('btn-again'));
      await page.waitForFunction(() => window.__tilecrush.view && window.__tilecrush.view.attempt === 2);
      await page.click(testid('btn-resign'));
      await page.click(testid('confirm-ok'));
      await page.locator(testid('standing-rank')).waitFor();
      assert.equal(await page.locator(testid('share-text')).count(), 0);
    });
    // The second player has a long name (29 characters), for the
    // leaderboard's width on a phone below.
    await withPage(t, env, { name: uniqueName('Long_player_name_'), viewport: { width: 390, height: 844 } }, async (page) => {
      await playDaily(page, 'same', 'easy');
      const end = await playSameToEnd(page, assert);
      await page.locator(testid('standing-rank')).waitFor();
      assert.match(await page.textContent(testid('standing-rank')), /^Your place on this board: #[12] of 2$/);
      assert.equal(await page.textContent(testid('standing-best-overall')),
        `Your best in Same Game · Easy: ${end.score}`);
      assert.equal(await page.textContent(testid('standing-yesterday')),
        "You did not play yesterday's daily on this board.");
      assert.match(await page.textContent(testid('standing-next')), /^Next daily in \d+:\d\d(:\d\d)?$/);
      assert.equal(await page.textContent(testid('standing-keep')), "Play tomorrow's daily to make it a 2-day streak.");

      const text = await page.textContent(testid('share-text'));
      const lines = text.split('\n');
      const today = new Date().toISOString().slice(0, 10);
      assert.equal(lines[0], `tilecrush · Daily Same Game · Easy · ${today}`);
      assert.match(lines[1], new RegExp(`^${end.score} points · #[12] of 2$`));
      assert.match(lines[2], /^[⬜🟨🟧🟥]+🏁?$/u, 'the strip is squares only');
      assert.equal(lines[3], `${end.move_count} moves · 🔥 1-day streak`);
      assert.equal(lines[4], `${page.base}/?view=competition&id=daily-${today}-same-easy`);
      assert.equal(lines.length, 5);

      // Without the Web Share API (headless), the text goes to the clipboard.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.evaluate(() => { delete Navigator.prototype.share; });
      await page.click(testid('btn-share-result'));
      await page.waitForFunction(() => document.querySelector('[data-testid="share-status"]').textContent !== '');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), text);

      assert.equal(await page.textContent(testid('standing-streak')), 'Same Game: 🔥 1-day streak · best 1');

      // The home page: the streak, and no Yesterday card (yesterday had no
      // dailies on this fresh server).
      await page.click(testid('nav-home'));
      const streak = page.locator('[data-testid="home-streak-list"] [data-testid="streak"][data-mode="same"]');
      await streak.waitFor();
      assert.equal(await streak.textContent(), 'Same Game: 🔥 1-day streak · best 1');
      assert.equal(await page.locator(testid('yesterday')).isVisible(), false);
      // Today's row of the board played gives the player's place; a board
      // not played, none.
      const easy = page.locator('[data-testid="daily-board"][data-mode="same"][data-preset="easy"]');
      await easy.locator(testid('daily-mine')).waitFor();
      assert.match(await easy.locator(testid('daily-mine')).textContent(),
        new RegExp(`^Your place today: #[12] of 2, ${end.score} points$`));
      const normal = page.locator('[data-testid="daily-board"][data-mode="same"][data-preset="normal"]');
      assert.equal(await normal.locator(testid('daily-mine')).count(), 0);
      // The board's leaderboard fits the phone: time and attempts are left
      // out (Same Game breaks ties by fewer moves, which stay), the long
      // name wraps, and rank, name, score and moves stay in the card.
      await easy.locator(testid('daily-leaderboard')).click();
      const row = page.locator(`[data-testid="lb-row"][data-player="${page.playerName}"]`);
      await row.waitFor();
      const fit = await page.evaluate(() => {
        const table = document.querySelector('[data-testid="lb-table"]');
        const card = table.closest('.card').getBoundingClientRect();
        const cells = [...document.querySelectorAll('[data-testid="lb-row"] td')].filter((td) => td.offsetWidth > 0)
          .map((td) => td.getBoundingClientRect().right);
        return { table: table.getBoundingClientRect().right, card: card.right, cells: Math.max(...cells),
          wide: document.documentElement.scrollWidth - innerWidth };
      });
      assert.ok(fit.table <= fit.card && fit.cells <= fit.card, `table ends at ${fit.table}, cells at ${fit.cells}, card at ${fit.card}`);
      assert.equal(fit.wide, 0, 'the page does not scroll sideways');
      for (const cell of ['td:nth-child(1)', 'td.who a', testid('lb-score'), 'td:nth-child(4)']) {
        assert.ok(await row.locator(cell).isVisible(), `${cell} shows`);
      }
      assert.equal(await row.locator(testid('lb-score')).textContent(), String(end.score));
      assert.equal(await page.textContent('[data-testid="lb-table"] th:nth-child(4)'), 'Moves');
      assert.equal(await row.locator('td.opt').count(), 2);
      for (const td of await row.locator('td.opt').all()) assert.equal(await td.isVisible(), false, 'no time nor attempts');
      // And the player page.
      await page.goto(`${page.base}/?view=player&name=${encodeURIComponent(page.playerName)}`);
      await page.locator('[data-testid="player-streaks"] [data-testid="streak"]').waitFor();
      assert.equal(await page.getAttribute('[data-testid="player-streaks"] [data-testid="streak"]', 'data-current'), '1');
      assert.deepEqual(page.errors, []);
    });
  });

  test('a practice game says it is not ranked, in Japanese too', async (t) => {
    await withPage(t, env, { lang: 'ja' }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=standing-practice`);
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      await playLargestGroups(page, assert, 1);
      // A game with moves is not given up by one stray tap; on a ranked
      // board the question says where the score goes. Escape keeps playing.
      await page.click(testid('btn-resign'));
      await page.locator(testid('confirm-dialog')).waitFor();
      assert.equal(await page.textContent('[data-testid="confirm-dialog"] h2'), 'このゲームをあきらめますか?');
      assert.match(await page.textContent(testid('confirm-text')), /ランキング/);
      await page.keyboard.press('Escape');
      assert.equal((await page.evaluate(() => window.__tilecrush.view)).over, false);
      await giveUp(page);
      // A casual board is ranked: its place is shown, without a share text.
      await page.locator(testid('standing-rank')).waitFor();
      assert.equal(await page.textContent(testid('standing-rank')), 'この盤面での順位: 1人中1位');
      assert.equal(await page.locator(testid('share-text')).count(), 0);
      assert.deepEqual(page.errors, []);
    });
  });
});
