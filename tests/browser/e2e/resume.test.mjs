// A running competition attempt belongs to the player, not to the tab
// (protocol.md, "Running attempts"): a daily match-3 attempt (one counted
// attempt) survives closing every page, is resumed from the home page of a
// new page at the same state_hash, and from a second browser context
// holding the same identity (another device), where Play on that daily
// resumes it instead of starting practice and the competition page offers
// Resume. Leaving the attempt, "New board" and "Give up" ask first, in the
// site's own dialog (English and Japanese); giving up ends it for good.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, openPage, testid, waitIdle, gameView, clickCell, withPages, shotName,
} from '../lib/harness.mjs';
import { expectHashesEqual, swaps } from '../lib/moves.mjs';

// One valid swap by two clicks; the client's hash must equal the server's.
async function swapOnce(page) {
  await waitIdle(page);
  const v = await gameView(page);
  const swap = swaps(v.board).valid[0];
  assert.ok(swap, 'a running match-3 game has a valid swap');
  await clickCell(page, swap[0][0], swap[0][1]);
  await page.waitForSelector('[data-testid="cell"].picked');
  await clickCell(page, swap[1][0], swap[1][1]);
  await page.waitForFunction((n) => window.__tilecrush.view.move_count > n, v.move_count);
  await waitIdle(page);
  await expectHashesEqual(page);
}

// Where the game on screen stands: what must come back when it is resumed.
const snapshot = (page) => page.evaluate(() => {
  const v = window.__tilecrush.view;
  return { game_id: v.game_id, competition: v.competition, attempt: v.attempt, ranked: v.ranked,
    score: v.score, move_count: v.move_count, state_hash: window.__tilecrush.lastStateHash, over: v.over };
});

// A new page (openPage's options) at `path`, kept in `pages` (withPages').
async function pageAt(pages, env, path, options) {
  const page = await openPage(env, options);
  pages.push(page);
  await page.goto(`${page.base}${path}`);
  return page;
}

// Waits until `page` shows game `id`, loaded and idle.
async function showsGame(page, id, timeout) {
  await page.waitForFunction((wanted) => window.__tilecrush.view && window.__tilecrush.view.game_id === wanted,
    id, { timeout });
  await waitIdle(page);
}

const row = (mode, preset) => `[data-testid="daily-board"][data-mode="${mode}"][data-preset="${preset}"]`;

browserSuite('Running attempts', (env) => {
  test('a daily attempt survives closing every page and is resumed on another device', async (t) => {
    const pages = [];
    await withPages(pages, shotName(t), async () => {
      // Start today's match-3 daily (one counted attempt) and play one swap.
      const first = await pageAt(pages, env, '/');
      const daily = first.locator(row('match3', 'classic'));
      await daily.locator(testid('daily-play')).waitFor();
      const competition = await daily.getAttribute('data-competition');
      assert.match(competition, /^daily-\d{4}-\d\d-\d\d-match3-classic$/);
      await daily.locator(testid('daily-play')).click();
      await first.waitForFunction(() => window.__tilecrush.view && window.__tilecrush.view.attempt === 1);
      await swapOnce(first);
      const before = await snapshot(first);
      assert.equal(before.competition, competition);
      assert.equal(before.ranked, true);
      assert.equal(before.move_count, 1);
      const identity = await first.evaluate(() => JSON.parse(localStorage.getItem('tilecrush.identity')));
      assert.match(identity.token, /^[0-9a-f]{32}$/);

      // Close every page (and its browser context: nothing of the tab is left).
      await first.context().close();

      // A new page with the same identity: the home page's daily row offers
      // Resume, and the welcome listed the attempt.
      const second = await pageAt(pages, env, '/', { name: identity.name, identity });
      const resume = second.locator(`${row('match3', 'classic')} ${testid('daily-resume')}`);
      await resume.waitFor();
      assert.equal(await resume.getAttribute('data-game'), before.game_id);
      assert.equal(await second.locator(`${row('match3', 'classic')} ${testid('daily-play')}`).count(), 0);
      assert.match(await second.textContent(`${row('match3', 'classic')} ${testid('daily-running')}`),
        new RegExp(`^Attempt 1 in progress: score ${before.score} after move 1\\. Resume it before the close\\.$`));
      const listed = await second.evaluate(() => window.__tilecrush.running);
      assert.equal(listed.length, 1);
      assert.equal(listed[0].game_id, before.game_id);
      assert.equal(listed[0].competition, competition);
      assert.equal(listed[0].move_count, 1);
      await resume.click();
      await showsGame(second, before.game_id);
      const resumed = await snapshot(second);
      assert.deepEqual(resumed, before, 'the same game at the same state_hash');
      assert.match(second.url(), new RegExp(`competition=${competition}&game=${before.game_id}`));
      await swapOnce(second);
      const later = await snapshot(second);
      assert.equal(later.move_count, 2);

      // Another device (a second browser context, the same name and token):
      // Play on the daily resumes the attempt, never practice.
      const other = await pageAt(pages, env, '/?mode=match3&preset=classic&daily=1',
        { name: identity.name, identity });
      await showsGame(other, before.game_id, 10000);
      assert.deepEqual(await snapshot(other), later, 'the other device resumes the same game');
      // The competition page offers Resume instead of Play.
      await other.goto(`${other.base}/?view=competition&id=${competition}`);
      const compResume = other.locator(testid('comp-resume'));
      await compResume.waitFor();
      assert.equal(await compResume.textContent(), 'Resume attempt 1');
      assert.equal(await other.locator(testid('comp-play')).isVisible(), false);
      await compResume.click();
      await showsGame(other, before.game_id);
      assert.equal((await snapshot(other)).state_hash, later.state_hash);

      // The game moves on on the first device; a swap on the other one's
      // old board is refused unplayed, and that device shows the game as it
      // stands, saying why; its next swap is played.
      await swapOnce(second);
      const moved = await snapshot(second);
      assert.equal(moved.move_count, 3);
      const old = await gameView(other);
      const staleSwap = swaps(old.board).valid[0];
      await clickCell(other, staleSwap[0][0], staleSwap[0][1]);
      await other.waitForSelector('[data-testid="cell"].picked');
      await clickCell(other, staleSwap[1][0], staleSwap[1][1]);
      await other.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
      await waitIdle(other);
      assert.equal(await other.textContent(testid('message')),
        'This game moved on in another tab or device: here it is as it stands now.');
      assert.deepEqual(await snapshot(other), moved, 'the other device shows the game as it stands');
      assert.deepEqual(await snapshot(second), moved, 'the refused swap changed nothing');
      await expectHashesEqual(other);
      await swapOnce(other);
      assert.equal((await snapshot(other)).move_count, 4);
      for (const p of pages.filter((x) => !x.isClosed())) assert.deepEqual(p.errors, []);
    });
  });

  test('leaving, a new board and giving up ask first; giving up ends the attempt', async (t) => {
    const pages = [];
    await withPages(pages, shotName(t), async () => {
      const page = await pageAt(pages, env, '/');
      await page.locator(`${row('match3', 'classic')} ${testid('daily-play')}`).click();
      await page.waitForFunction(() => window.__tilecrush.view && window.__tilecrush.view.attempt === 1);
      await swapOnce(page);
      const start = await snapshot(page);
      const attemptAddress = page.url();
      const dialog = page.locator(testid('confirm-dialog'));

      // Leaving through a link: the dialog says what happens; staying keeps the game.
      await page.click(testid('nav-home'));
      await dialog.waitFor();
      assert.match(await page.textContent(testid('confirm-text')),
        /stays counted.*resume it from the home page or the competition page/);
      await page.click(testid('confirm-cancel'));
      await dialog.waitFor({ state: 'detached' });
      assert.equal(page.url(), attemptAddress);
      assert.equal(await page.locator(testid('play-page')).count(), 1);

      // "New board": Escape stays too.
      await page.click(testid('btn-new'));
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal(page.url(), attemptAddress);

      // The browser's back button (to the home page): asked, and the page stays.
      await page.goBack();
      await dialog.waitFor();
      await page.click(testid('confirm-cancel'));
      await dialog.waitFor({ state: 'detached' });
      assert.equal(page.url(), attemptAddress);
      assert.equal(await page.locator(testid('play-page')).count(), 1);
      assert.equal((await snapshot(page)).state_hash, start.state_hash);

      // Closing the tab asks through the browser's own beforeunload dialog.
      const asked = new Promise((resolve) => page.once('dialog', (d) => { resolve(d.type()); d.dismiss(); }));
      await page.close({ runBeforeUnload: true });
      assert.equal(await asked, 'beforeunload');
      assert.equal(page.isClosed(), false, 'dismissing the question keeps the page');

      // Leaving for real: the home page then offers Resume on the daily's row.
      await page.click(testid('nav-home'));
      await dialog.waitFor();
      await page.click(testid('confirm-ok'));
      await page.locator(testid('home-page')).waitFor();
      const resume = page.locator(`${row('match3', 'classic')} ${testid('daily-resume')}`);
      await resume.waitFor();
      await resume.click();
      await showsGame(page, start.game_id);

      // Giving up, in Japanese: asked first; cancelling keeps the game.
      await page.evaluate(() => window.__tilecrush.setLang('ja'));
      await page.click(testid('btn-resign'));
      await dialog.waitFor();
      assert.match(await page.textContent(testid('confirm-text')), /完全に終わります/);
      assert.equal(await page.textContent(testid('confirm-ok')), 'あきらめる');
      await page.click(testid('confirm-cancel'));
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await gameView(page)).over, false);
      await page.click(testid('btn-resign'));
      await dialog.waitFor();
      await page.click(testid('confirm-ok'));
      await page.waitForFunction(() => window.__tilecrush.view.over);

      // Ended for good: nothing to resume; the daily's Play is practice now,
      // and the end says so on its button.
      await page.evaluate(() => window.__tilecrush.setLang('en'));
      assert.equal(await page.textContent(testid('btn-again')), 'Play it again as practice (unranked)');
      await page.click(testid('nav-home'));
      await page.locator(testid('home-page')).waitFor();
      const play = page.locator(`${row('match3', 'classic')} ${testid('daily-play')}`);
      await page.locator('[data-testid="daily-list"][data-running-loaded="true"]').waitFor();
      await play.waitFor();
      assert.equal(await page.locator(testid('daily-resume')).count(), 0);
      // Its one counted attempt used, the row's Play says it is practice.
      await page.locator(`${row('match3', 'classic')} [data-testid="daily-play"][data-practice="true"]`).waitFor();
      assert.equal(await play.textContent(), 'Practice');
      await play.click();
      await page.waitForFunction((id) => window.__tilecrush.view && window.__tilecrush.view.game_id !== id, start.game_id);
      const practice = await gameView(page);
      assert.equal(practice.attempt, null);
      assert.equal(practice.ranked, false);
      // Practice is not an attempt: leaving it asks nothing.
      await page.click(testid('nav-home'));
      await page.locator(testid('home-page')).waitFor();
      assert.equal(await dialog.count(), 0);
      assert.deepEqual(page.errors, []);
    });
  });
});
