// The server down: a page read over HTTP says so in the page instead of
// staying blank (one notice for all of them, web-client/js/unreachable.js),
// offers Retry, and fills in by itself once the server answers again. The
// browser goes offline after the client is loaded (context.setOffline), as
// when the server stops under an open tab, and pages are reached from the
// navigation (no reload).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid } from '../lib/harness.mjs';

const notice = (page) => page.locator(testid('unreachable'));

browserSuite('Server unreachable', (env) => {
  test('Leaderboards, Competitions, Seasons, Archive and a player page say the server cannot be reached, then fill in', async (t) => {
    await withPage(t, env, { name: null, viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto(`${page.base}/`);
      await page.waitForSelector(testid('nav-leaderboard'));
      await page.context().setOffline(true);

      await page.click(testid('nav-leaderboard'));
      await notice(page).waitFor({ state: 'visible', timeout: 5000 });
      assert.match(await notice(page).textContent(), /The server cannot be reached/);
      assert.equal(await page.locator(testid('lb-daily-link')).count(), 0);
      // Back online: the page fills in by itself (no click, no reload).
      await page.context().setOffline(false);
      await page.waitForSelector(testid('lb-daily-link'), { timeout: 20000 });
      assert.equal(await notice(page).isVisible(), false);

      await page.context().setOffline(true);
      for (const [nav, filled] of [['nav-competitions', 'comps-open'], ['nav-seasons', 'season-rule'],
        ['nav-archive', 'archive-days']]) {
        await page.click(testid(nav));
        await notice(page).waitFor({ state: 'visible', timeout: 5000 });
        assert.match(await notice(page).textContent(), /The server cannot be reached/, nav);
        assert.equal(await page.locator(testid(filled)).isVisible(), false, `${nav}: no empty part under the notice`);
        assert.equal(await page.locator('main').getByText('Loading…').count(), 0, `${nav}: not "Loading…" forever`);
      }
      // A player's page, with the server refusing connections (no
      // "online" event: the page waits for Retry or its own next try).
      await page.context().setOffline(false);
      let asked = 0;
      await page.route('**/api/players/**', (route) => { asked += 1; return route.abort('connectionrefused'); });
      await page.evaluate(() => window.__tilecrush.app.navigate('/?view=player&name=nobody_here', { force: true }));
      await notice(page).waitFor({ state: 'visible', timeout: 5000 });
      assert.equal(await page.locator('main').getByText('Loading…').count(), 0);
      // In Japanese too; Retry asks again at once.
      await page.evaluate(() => window.__tilecrush.setLang('ja'));
      assert.match(await notice(page).textContent(), /サーバーに接続できません/);
      assert.equal(await page.textContent(testid('unreachable-retry')), '再試行');
      const before = asked;
      await page.click(testid('unreachable-retry'));
      await page.waitForFunction(() => !document.querySelector('[data-testid="unreachable-retry"]').disabled);
      assert.ok(asked > before, 'Retry asked the server again');
      assert.equal(await notice(page).isVisible(), true, 'still unreachable: the notice stays');
      await page.unroute('**/api/players/**');
      await page.waitForSelector(`${testid('player-page')} .message`, { timeout: 20000 });
      assert.equal(await notice(page).isVisible(), false);
      assert.equal(await page.textContent(`${testid('player-page')} .message`), 'そのプレイヤーはいません。');
    });
  });
});
