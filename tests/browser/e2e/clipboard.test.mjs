// Copy buttons say the truth (clipboard.js): where the page may not write
// to the clipboard (navigator.clipboard is missing on plain http from
// another address, and refuses without the permission), the end of game's
// "Copy link", a room's and a replay's select the link for a copy by hand
// and say so, never "Link copied"; with the clipboard they copy it and say
// "Link copied". A finished daily keeps its "Share your result" block,
// whose text is then selected.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, playLargestGroups, waitIdle, openGame, giveUp } from '../lib/harness.mjs';

// As on plain http from a non-localhost address: no clipboard, no Web Share.
function noClipboard() {
  Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
  delete Navigator.prototype.share;
}

const SELECTED = 'Selected: copy it with your keyboard or menu.';
const SELECTED_JA = '選択しました。キーボードかメニューでコピーしてください。';

// The text selected on the page: an input's selected value, or the range.
const selectedText = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (el && el.tagName === 'INPUT') return el.value.slice(el.selectionStart, el.selectionEnd);
  return String(window.getSelection());
});

async function statusOf(page, id) {
  await page.waitForFunction((s) => document.querySelector(s).textContent !== '', testid(id));
  return page.textContent(testid(id));
}

browserSuite('Copy buttons: copied, or selected for a copy by hand', (env) => {
  test('without a clipboard: the end of game, a room and a replay select their link and say so', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.context().addInitScript(noClipboard);
      const v = await openGame(page, 'mode=same&preset=easy&seed=browser-clip');
      assert.equal(await page.evaluate(() => navigator.clipboard), undefined);
      await playLargestGroups(page, assert, 1);
      await giveUp(page);
      await page.locator(testid('btn-share')).waitFor();
      const link = await page.inputValue(testid('share-link'));
      await page.click(testid('btn-share'));
      assert.equal(await statusOf(page, 'btn-share-status'), SELECTED);
      assert.equal(await page.textContent(testid('btn-share')), 'Copy link');
      assert.equal(await selectedText(page), link, 'the link is selected in its field');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'share-link');

      // The replay's "Copy the link to move N": the link shown and selected.
      await page.goto(`${page.base}/?view=replay&game=${v.game_id}`);
      await page.locator(testid('btn-move-link')).waitFor();
      await page.click(testid('btn-move-link'));
      await page.locator(testid('replay-link-text')).waitFor();
      const shown = await page.textContent(testid('replay-link-text'));
      assert.match(shown, new RegExp(`^${page.base.replace(/[.]/g, '\\.')}/\\?view=replay&game=`));
      assert.equal(await page.textContent(testid('replay-message')), `${SELECTED} ${shown}`);
      assert.equal(await selectedText(page), shown);

      // A room's two links, in Japanese.
      await page.evaluate(() => localStorage.setItem('tilecrush.lang', 'ja'));
      await page.goto(`${page.base}/?view=rooms`);
      await page.selectOption(testid('room-mode'), 'same');
      await page.click(testid('btn-create-room'));
      await page.locator(testid('room-share-link-copy')).waitFor();
      await page.click(testid('room-share-link-copy'));
      assert.equal(await statusOf(page, 'room-share-link-copy-status'), SELECTED_JA);
      assert.equal(await selectedText(page), await page.inputValue(testid('room-share-link')));
      await page.click(testid('room-watch-link-copy'));
      assert.equal(await statusOf(page, 'room-watch-link-copy-status'), SELECTED_JA);
      assert.equal(await selectedText(page), await page.inputValue(testid('room-watch-link')));
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0);
      assert.deepEqual(page.errors, []);
    });
  });

  test('with the clipboard: the link is copied and "Link copied" says so', async (t) => {
    await withPage(t, env, { contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] } }, async (page) => {
      await openGame(page, 'mode=same&preset=easy&seed=browser-clip-2');
      await giveUp(page);
      await page.locator(testid('btn-share')).waitFor();
      await page.click(testid('btn-share'));
      assert.equal(await statusOf(page, 'btn-share-status'), 'Link copied');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue(testid('share-link')));
    });
  });

  test('a finished daily without a clipboard keeps its share block, the text selected', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.context().addInitScript(noClipboard);
      await page.goto(`${page.base}/`);
      const row = page.locator('[data-testid="daily-board"][data-mode="same"][data-preset="normal"]');
      await row.waitFor();
      await row.locator(testid('daily-play')).click();
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      await playLargestGroups(page, assert, 2);
      await page.click(testid('btn-resign'));
      await page.click(testid('confirm-ok'));
      await page.locator(testid('share-text')).waitFor();
      await waitIdle(page);
      assert.equal(await page.isVisible(testid('btn-share-result')), true);
      const text = await page.textContent(testid('share-text'));
      await page.click(testid('btn-share-result'));
      assert.equal(await statusOf(page, 'share-status'), 'Copy the selected text to share it.');
      assert.equal(await selectedText(page), text);
      assert.equal(await page.locator(testid('share-text')).count(), 1, 'the block stays');
      assert.deepEqual(page.errors, []);
    });
  });
});
