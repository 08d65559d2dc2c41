// Mistyped links say so: a game id nobody has and a seed the server refuses
// (the play page), a room code no room has (the rooms page), a season
// period that does not exist (the seasons page) each give one clear
// "no such ..." state in the page's language with a way on, never an empty
// board, a room page for a room never joined, or contradictory lines.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, nameNeverAsked } from '../lib/harness.mjs';

const mainText = (page) => page.locator('main').innerText();

browserSuite('Mistyped links', (env) => {
  test('an unknown game id or a refused seed is "No such game" / "This seed cannot be used", not an empty board', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&game=0000000000000000`);
      await page.locator(testid('not-found')).waitFor({ timeout: 10000 });
      assert.equal(await page.textContent(testid('not-found-title')), 'No such game');
      assert.equal(await page.locator(testid('board')).count(), 0, 'no empty board');
      assert.equal(await page.locator(testid('btn-hint')).count(), 0, 'no game buttons');
      assert.doesNotMatch(await mainText(page), /Error|no such game/);
      // A way on: a new board of the same kind, and the home page.
      assert.equal(await page.textContent(testid('not-found-new-board')), 'A new board of Same Game · Easy');
      await page.click(testid('not-found-new-board'));
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      assert.equal((await page.evaluate(() => window.__tilecrush.view)).preset, 'easy');

      // In Japanese: the client's own words, none of the server's English.
      await page.evaluate(() => window.__tilecrush.setLang('ja'));
      await page.goto(`${page.base}/?mode=same&preset=easy&game=0000000000000000`);
      await page.locator(testid('not-found')).waitFor({ timeout: 10000 });
      assert.equal(await page.textContent(testid('not-found-title')), 'ゲームが見つかりません');
      assert.doesNotMatch(await mainText(page), /エラー|no such game/);
      assert.equal(await page.textContent(testid('not-found-home')), 'ホームへ');
      await page.evaluate(() => window.__tilecrush.setLang('en'));

      // A seed the server would refuse is not even asked for.
      for (const seed of ['x'.repeat(100), 'a\u0001b']) {
        let asked = 0;
        const onWs = (ws) => ws.on('framesent', (f) => { if (String(f.payload).includes('"new_game"')) asked += 1; });
        page.on('websocket', onWs);
        await page.goto(`${page.base}/?${new URLSearchParams({ mode: 'match3', preset: 'classic', seed })}`);
        await page.locator(testid('not-found')).waitFor({ timeout: 10000 });
        assert.equal(await page.textContent(testid('not-found-title')), 'This seed cannot be used');
        assert.equal(await page.textContent(testid('not-found-new-board')), 'A new board of Match-3 · Classic');
        assert.doesNotMatch(await mainText(page), /Error|must have/);
        await page.waitForTimeout(300);
        assert.equal(asked, 0, 'no new_game for a seed the server refuses');
        page.off('websocket', onWs);
      }
      assert.deepEqual(page.errors, []);
    });
  });

  test('a visitor opening a refused seed is not asked for a name', async (t) => {
    await withPage(t, env, { name: null }, async (page) => {
      const never = nameNeverAsked(page);
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=${'y'.repeat(65)}`);
      await page.locator(testid('not-found')).waitFor({ timeout: 10000 });
      await never('a refused seed');
    });
  });

  test('while a board waits for a name, only the boxes every game has are shown', async (t) => {
    await withPage(t, env, { name: null }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy`);
      await page.locator(testid('name-dialog')).waitFor();
      for (const box of ['moves-left', 'peeks', 'timer']) {
        assert.equal(await page.locator(`[data-stat="${box}"]`).isVisible(), false, box);
      }
      assert.equal(await page.locator('[data-stat="score"]').isVisible(), true);
    });
  });

  test('a bad or unknown room code is an error beside the Join form, no room page', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${page.base}/?view=rooms`);
      await page.fill(testid('room-code-input'), 'abc');
      await page.click(testid('btn-join-room'));
      assert.equal(await page.textContent(testid('room-join-message')), 'A room code has 6 letters and digits, like QX4PZR.');
      assert.match(page.url(), /view=rooms$/);
      assert.equal(await page.locator(testid('btn-leave-room')).count(), 0);

      await page.goto(`${page.base}/?view=rooms&room=!!`);
      await page.locator(testid('room-join')).waitFor();
      assert.equal(await page.textContent(testid('room-join-message')), 'A room code has 6 letters and digits, like QX4PZR.');
      assert.equal(await page.locator(testid('room-code')).count(), 0, 'no "Room !!" page');
      assert.equal(await page.locator(testid('btn-leave-room')).count(), 0);

      // A well-formed code no room has: asked, then the form with the answer.
      await page.evaluate(() => window.__tilecrush.setLang('ja'));
      await page.goto(`${page.base}/?view=rooms&room=ZZZZZZ`);
      await page.locator(testid('room-join-message')).filter({ hasText: 'このコードのルームはありません' }).waitFor({ timeout: 10000 });
      assert.equal(await page.locator(testid('btn-leave-room')).count(), 0, 'no Leave for a room never joined');
      assert.equal(await page.inputValue(testid('room-code-input')), 'ZZZZZZ');
      assert.match(page.url(), /view=rooms$/);
      assert.deepEqual(page.errors, []);
    });
  });

  test('a season period that does not exist is one "No such season", without "over" or an error', async (t) => {
    await withPage(t, env, { name: null, viewport: { width: 1280, height: 860 } }, async (page) => {
      for (const period of ['2026-W99', '2026-13', '1999-W10', 'latest']) {
        await page.goto(`${page.base}/?view=seasons&period=${period}`);
        await page.locator(testid('season-missing-current')).waitFor({ timeout: 10000 });
        assert.equal(await page.textContent(testid('season-heading')), 'No such season', period);
        const text = await mainText(page);
        assert.doesNotMatch(text, /This period is over|Error|Week 99|period must/, period);
        assert.equal(await page.locator(testid('season-table')).locator('tr').count(), 0);
      }
      await page.click(testid('season-missing-current'));
      await page.locator(testid('season-rule')).waitFor();
      // The current week is known once the seasons' index is in: the heading
      // says 'Season' until then.
      await page.waitForFunction(() => /·/.test(document.querySelector('[data-testid="season-heading"]').textContent));
      assert.match(await page.textContent(testid('season-heading')), /^Season: Same Game · Week \d+, \d{4}$/);
      await page.evaluate(() => window.__tilecrush.setLang('ja'));
      await page.goto(`${page.base}/?view=seasons&period=2026-W99`);
      await page.locator(testid('season-missing-current')).waitFor({ timeout: 10000 });
      assert.equal(await page.textContent(testid('season-heading')), 'シーズンが見つかりません');
      assert.deepEqual(page.errors, []);
    });
  });
});
