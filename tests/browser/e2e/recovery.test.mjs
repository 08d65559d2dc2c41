// Recovery codes in the browser (protocol.md, "Recovery codes"): a player
// gets a code from the account panel; a new browser context, with nothing
// in its localStorage, finds the name taken, signs in with the code (a
// wrong one first) and plays as that player; the first browser keeps its
// token, then signs out (asked first) and forgets the name until the code
// brings it back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, openPage, testid, waitIdle, uniqueName } from '../lib/harness.mjs';
import { clickSomeGroup } from '../lib/moves.mjs';

const stored = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('tilecrush.identity')));

browserSuite('Recovery codes', (env) => {
  test('a new browser without the token recovers the name with its code and plays', async (t) => {
    const name = uniqueName('rec');
    const first = await openPage(env, { name,
      contextOptions: { permissions: ['clipboard-read', 'clipboard-write'] } });
    let second = null;
    try {
      await first.goto(`${first.base}/?mode=same&preset=easy&seed=browser-recovery`);
      await waitIdle(first);
      assert.equal(await first.textContent(testid('me')), name);
      const firstToken = (await stored(first)).token;
      assert.match(firstToken, /^[0-9a-f]{32}$/);

      // The account panel: a code shown once, with a copy button.
      await first.click(testid('account-open'));
      await first.locator(testid('account-panel')).waitFor();
      assert.ok((await first.textContent(testid('account-name'))).includes(name));
      await first.click(testid('recovery-get'));
      await first.locator(testid('recovery-code')).waitFor();
      let code = (await first.textContent(testid('recovery-code'))).trim();
      assert.match(code, /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
      await first.click(testid('recovery-copy'));
      await first.waitForFunction(() => document.querySelector('[data-testid="recovery-status"]').textContent !== '');
      assert.equal(await first.evaluate(() => navigator.clipboard.readText()), code);
      // The code is kept nowhere in the browser.
      const storage = await first.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
      assert.ok(!storage.includes(code), 'the code is not stored');
      // Asking again would replace the code on screen: asked first. Kept
      // (Escape closes the question only), then replaced.
      await first.click(testid('recovery-get'));
      await first.locator(testid('confirm-dialog')).waitFor();
      assert.equal(await first.textContent('[data-testid="confirm-dialog"] h2'), 'Replace the code shown?');
      await first.keyboard.press('Escape');
      assert.equal(await first.locator(testid('confirm-dialog')).count(), 0);
      assert.equal(await first.locator(testid('account-dialog')).count(), 1);
      assert.equal((await first.textContent(testid('recovery-code'))).trim(), code);
      await first.click(testid('recovery-get'));
      await first.click(testid('confirm-ok'));
      await first.waitForFunction((old) =>
        document.querySelector('[data-testid="recovery-code"]').textContent.trim() !== old, code);
      code = (await first.textContent(testid('recovery-code'))).trim();
      assert.match(code, /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
      await first.click(testid('account-close'));
      assert.equal(await first.locator(testid('account-dialog')).count(), 0);
      // The focus is back on the button that opened the panel.
      assert.equal(await first.evaluate(() => document.activeElement.dataset.testid), 'account-open');

      // A new browser: no identity at all. The name is taken...
      second = await openPage(env, { name: null });
      await second.goto(`${second.base}/?mode=same&preset=easy&seed=browser-recovery-2`);
      await second.locator(testid('name-dialog')).waitFor();
      await second.fill(testid('name-input'), name);
      await second.click(testid('name-submit'));
      await second.locator(testid('recover-open')).waitFor();
      assert.equal(await second.textContent(testid('name-error')),
        'That name is taken or its token is wrong: choose another.');
      assert.equal(await second.inputValue(testid('name-input')), name);
      // ... "this name is mine": a wrong code first, then the right one as
      // a person might type it.
      await second.click(testid('recover-open'));
      // Signing in to it: "choose another" no longer applies.
      assert.equal(await second.textContent(testid('name-error')), '');
      assert.equal(await second.locator(testid('name-watch-note')).count(), 0);
      await second.fill(testid('recovery-input'), 'AAAAA-AAAAA-AAAAA-AAAAA');
      await second.click(testid('name-submit'));
      await second.waitForFunction(() => {
        const e = document.querySelector('[data-testid="name-error"]');
        return e && e.textContent === 'Wrong recovery code for this name.';
      });
      assert.equal(await second.locator(testid('recovery-fields')).isVisible(), true);
      await second.fill(testid('recovery-input'), code.toLowerCase().replace(/-/g, ' '));
      await second.click(testid('name-submit'));
      await waitIdle(second);
      assert.equal(await second.textContent(testid('me')), name);
      const secondToken = (await stored(second)).token;
      assert.match(secondToken, /^[0-9a-f]{32}$/);
      assert.notEqual(secondToken, firstToken, 'this device has a token of its own');
      assert.equal((await stored(second)).name, name);
      // It plays as the player.
      await clickSomeGroup(second);
      assert.equal(await second.textContent(testid('moves')), '1');

      // The first browser keeps its token: a reload signs in without a dialog.
      await first.reload();
      await waitIdle(first);
      assert.equal(await first.textContent(testid('me')), name);
      assert.equal((await stored(first)).token, firstToken);

      // Signing out on the first browser (a shared one) asks first and says
      // what brings the name back; then this browser forgets the name.
      await first.click(testid('account-open'));
      await first.click(testid('account-signout'));
      await first.locator(testid('confirm-dialog')).waitFor();
      assert.equal(await first.textContent('[data-testid="confirm-dialog"] h2'),
        `Sign out of ${name} on this device?`);
      assert.match(await first.textContent(testid('confirm-text')), /you need its recovery code/);
      await first.keyboard.press('Escape');
      assert.equal((await stored(first)).token, firstToken, 'kept: still signed in');
      await first.click(testid('account-signout'));
      await first.click(testid('confirm-ok'));
      await first.locator(testid('home-page')).waitFor();
      assert.equal(new URL(first.url()).pathname, '/');
      assert.equal(await stored(first), null);
      assert.equal(await first.locator(testid('me')).count(), 0);
      // The name is taken here now too, until its code signs in again.
      await first.goto(`${first.base}/?mode=same&preset=easy&seed=browser-recovery-3`);
      await first.locator(testid('name-dialog')).waitFor();
      await first.fill(testid('name-input'), name);
      await first.click(testid('name-submit'));
      await first.locator(testid('recover-open')).waitFor();
      await first.click(testid('recover-open'));
      await first.fill(testid('recovery-input'), code);
      await first.click(testid('name-submit'));
      await waitIdle(first);
      assert.equal(await first.textContent(testid('me')), name);
      assert.deepEqual(first.errors, []);
      assert.deepEqual(second.errors, []);
    } finally {
      await first.context().close();
      if (second) await second.context().close();
    }
  });

  test('the account panel is on pages read without a connection too, and connects for a code', async (t) => {
    const name = uniqueName('recnc');
    const page = await openPage(env, { name });
    try {
      // A first hello makes the name; Competitions is then read without one.
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-recovery-nc`);
      await waitIdle(page);
      await page.goto(`${page.base}/?view=competitions`);
      await page.locator(testid('account-open')).waitFor();
      assert.equal(await page.evaluate(() => window.__tilecrush.net.status), 'idle');
      await page.click(testid('account-open'));
      assert.ok((await page.textContent(testid('account-name'))).includes(name));
      await page.click(testid('recovery-get'));
      await page.locator(testid('recovery-code')).waitFor();
      assert.match((await page.textContent(testid('recovery-code'))).trim(), /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });

  test('the account panel and the recovery fields read in Japanese', async (t) => {
    const page = await openPage(env, { name: uniqueName('recja'), lang: 'ja' });
    try {
      await page.goto(`${page.base}/`);
      await page.locator(testid('account-open')).waitFor();
      assert.equal(await page.textContent(testid('account-open')), 'アカウント');
      await page.click(testid('account-open'));
      assert.equal(await page.textContent(testid('recovery-get')), '復旧コードを発行');
    } finally {
      await page.context().close();
    }
  });
});
