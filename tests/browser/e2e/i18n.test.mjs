// Language switch (remembered across reloads), every page loading without a
// script error, and names rendered as text, never as HTML.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle } from '../lib/harness.mjs';

browserSuite('Pages and languages', (env) => {
  test('switch to Japanese; the choice is remembered', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=normal&seed=browser-ja`);
      await waitIdle(page);
      assert.equal(await page.textContent(testid('nav-leaderboard')), 'Leaderboards');
      await page.locator(testid('board')).focus();
      await page.keyboard.press('ArrowRight');
      assert.match(await page.textContent(testid('announce')), /^Column 2, row 1/);
      await page.selectOption(testid('lang-select'), 'ja');
      assert.equal(await page.textContent(testid('nav-leaderboard')), 'ランキング');
      // The live region's English words are not left to be read out in Japanese.
      assert.equal(await page.textContent(testid('announce')), '');
      assert.match(await page.textContent(testid('game-title')), /さめがめ/);
      assert.match(await page.textContent(testid('btn-hint')), /ヒント/);
      assert.equal(await page.getAttribute('html', 'lang'), 'ja');
      // The words only assistive technology reads change too.
      assert.equal(await page.getAttribute(testid('lang-select'), 'aria-label'), '言語');
      assert.match(await page.getAttribute(testid('board'), 'aria-label'), /^盤面 /);
      await page.goto(`${page.base}/`);
      await page.locator(testid('home-page')).waitFor();
      assert.equal(await page.textContent(testid('btn-random')), 'ランダムな盤面');
      await page.selectOption(testid('lang-select'), 'en');
      assert.equal(await page.textContent(testid('btn-random')), 'Random board');
    });
  });

  test('every page loads without script errors on a phone-sized screen', async (t) => {
    await withPage(t, env, { viewport: { width: 375, height: 740 } }, async (page) => {
      for (const path of ['/', '/?view=leaderboard', '/?view=leaderboard&mode=same&preset=easy&seed=nobody',
        '/?view=player&name=nobody-here', '/?view=replay&game=no-such-game', '/?view=rooms',
        '/?view=competitions', '/?view=competition&id=no-such-competition', '/?view=organise',
        '/?view=leaderboard&competition=no-such-competition',
        '/?mode=match3&preset=crush&seed=phone', '/?mode=hidden&preset=large&seed=phone']) {
        await page.goto(`${page.base}${path}`);
        await page.waitForLoadState('networkidle');
      }
      await waitIdle(page);
      const box = await page.locator(testid('board')).boundingBox();
      assert.ok(box.width <= 375 && box.width > 300, `the board fits the phone width (${box.width})`);
      assert.deepEqual(page.errors, []);
    });
  });

  test('an address that leads nowhere says so, in the chosen language, with the way home', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const response = await page.goto(`${page.base}/nope/xyz`);
      assert.equal(response.status(), 404);
      await page.locator(testid('not-found')).waitFor();
      assert.equal(await page.textContent('[data-testid="not-found"] h2'), 'No such page');
      assert.equal(await page.locator(testid('nav-leaderboard')).count(), 1, 'the site header is there');
      await page.selectOption(testid('lang-select'), 'ja');
      assert.equal(await page.textContent('[data-testid="not-found"] h2'), 'ページが見つかりません');
      await page.selectOption(testid('lang-select'), 'en');
      await page.click(testid('not-found-home'));
      await page.locator(testid('home-page')).waitFor();
      assert.equal(new URL(page.url()).pathname, '/');
      // A name nobody has: said so, and nothing more is asked of the server.
      const asked = [];
      page.on('request', (r) => { if (r.url().includes('/api/players/')) asked.push(new URL(r.url()).pathname); });
      await page.goto(`${page.base}/?view=player&name=nobody-here`);
      await page.waitForFunction(() => document.querySelector('[data-testid="player-page"] .message'));
      assert.equal(await page.textContent('[data-testid="player-page"] .message'), 'No such player.');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(asked, ['/api/players/nobody-here']);
      // A view the client does not know leads nowhere too; no name is asked.
      await page.goto(`${page.base}/?view=bogus`);
      await page.locator(testid('not-found')).waitFor();
      assert.equal(await page.locator(testid('name-dialog')).count(), 0);
      // So does a board no mode or preset has.
      for (const board of ['mode=tetris&preset=easy', 'mode=same&preset=huge', 'mode=same']) {
        await page.goto(`${page.base}/?${board}`);
        await page.locator(testid('not-found')).waitFor();
      }
      assert.equal(await page.locator(testid('name-dialog')).count(), 0);
      assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    });
  });

  test('a player name with markup is shown as text', async (t) => {
    const name = `<b>x${Date.now() % 1000}</b>`;
    await withPage(t, env, { name }, async (page) => {
      await page.goto(`${page.base}/`);
      await page.locator(testid('me')).waitFor();
      assert.equal(await page.textContent(testid('me')), name);
      assert.equal(await page.locator('header b').count(), 0);
    });
  });
});
