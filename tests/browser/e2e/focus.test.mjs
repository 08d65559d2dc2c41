// Dialogs hold the keyboard's focus (modal.js): in the name dialog and the
// account panel, Tab and Shift+Tab go round their own controls and never
// reach the page behind the overlay; Escape closes them; closed, the focus
// goes back to the control that opened them, or to the page's content,
// never to the page's body. "Get a recovery code" leaves the focus on the
// code it shows.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle, uniqueName } from '../lib/harness.mjs';

// The focused element: its testid, or its id, and whether it is in `within`.
const focus = (page, within) => page.evaluate((sel) => {
  const el = document.activeElement;
  return { id: (el && (el.dataset.testid || el.id || el.tagName)) || null,
    inside: !!(el && el.closest(sel)) };
}, within);

// Presses Tab (or Shift+Tab) `n` times; the focus must stay in `within`.
async function tabRound(page, within, n, key = 'Tab') {
  const seen = new Set();
  for (let i = 0; i < n; i += 1) {
    await page.keyboard.press(key);
    const f = await focus(page, within);
    assert.ok(f.inside, `${key} ${i + 1}: the focus left the dialog for ${f.id}`);
    seen.add(f.id);
  }
  return seen;
}

browserSuite('Dialogs hold the focus', (env) => {
  test('the name dialog: Tab stays in it, Escape is "Not now", the focus goes back to the link', async (t) => {
    await withPage(t, env, { name: null, viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${page.base}/`);
      await page.locator(testid('nav-rooms')).waitFor();
      // The Rooms link, followed with the keyboard: the page needs a name.
      await page.focus(testid('nav-rooms'));
      await page.keyboard.press('Enter');
      await page.locator(testid('name-dialog')).waitFor();
      assert.equal((await focus(page, testid('name-form'))).id, 'name-input');
      const forward = await tabRound(page, testid('name-form'), 5);
      assert.deepEqual([...forward].sort(), ['name-cancel', 'name-input', 'name-submit']);
      await tabRound(page, testid('name-form'), 4, 'Shift+Tab');
      await page.keyboard.press('Escape');
      await page.locator(testid('name-dialog')).waitFor({ state: 'detached' });
      await page.locator(testid('daily-board')).first().waitFor();
      assert.equal((await focus(page, 'header')).id, 'nav-rooms', 'back on the link that led to the dialog');

      // "Not now" when the page itself asked (an address opened): the
      // focus is on the page's content, not its body.
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-focus`);
      await page.locator(testid('name-dialog')).waitFor();
      await page.focus(testid('name-cancel'));
      await page.keyboard.press('Enter');
      await page.locator(testid('name-dialog')).waitFor({ state: 'detached' });
      await page.waitForTimeout(200);
      assert.equal((await focus(page, 'main')).id, 'main');

      // A name given there: the focus is on the board, where play begins.
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-focus`);
      await page.locator(testid('name-dialog')).waitFor();
      await page.fill(testid('name-input'), uniqueName('focus'));
      await page.keyboard.press('Enter');
      await waitIdle(page);
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'board');
      assert.deepEqual(page.errors, []);
    });
  });

  test('the account panel: Tab stays in it, the code gets the focus, Escape closes it', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-focus-2`);
      await waitIdle(page);
      await page.focus(testid('account-open'));
      await page.keyboard.press('Enter');
      await page.locator(testid('account-panel')).waitFor();
      const forward = await tabRound(page, testid('account-panel'), 6);
      assert.deepEqual([...forward].sort(), ['account-close', 'account-signout', 'recovery-get']);
      await tabRound(page, testid('account-panel'), 4, 'Shift+Tab');
      // Get a code with the keyboard: the focus goes on to the code.
      await page.focus(testid('recovery-get'));
      await page.keyboard.press('Enter');
      await page.locator(testid('recovery-code')).waitFor();
      await page.waitForFunction(() => document.activeElement.dataset.testid !== 'recovery-get'
        || !document.activeElement.disabled);
      assert.equal((await focus(page, testid('account-panel'))).id, 'recovery-code');
      const round = await tabRound(page, testid('account-panel'), 7);
      assert.deepEqual([...round].sort(), ['account-close', 'account-signout', 'recovery-copy', 'recovery-get']);
      await page.keyboard.press('Escape');
      await page.locator(testid('account-dialog')).waitFor({ state: 'detached' });
      assert.equal((await focus(page, 'header')).id, 'account-open');
      assert.deepEqual(page.errors, []);
    });
  });
});
