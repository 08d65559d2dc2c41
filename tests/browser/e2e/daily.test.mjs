// Today's daily challenge from the home page to the leaderboard: play the
// daily Same Game (easy) to its end, find the own row highlighted on the
// board's leaderboard and in "around me", then the player page and the
// replay page. The daily board is a built-in competition (its commitment
// on the home page, its leaderboard the competition's, its moves secret
// until the day closes); a server without competitions still deals the
// date's seed (then the replay is stepped and verified). A visitor with no
// name reads the leaderboards, seasons and a player's page without being
// asked for one; Play asks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, openPage, testid, waitIdle, playSameToEnd, nameNeverAsked } from '../lib/harness.mjs';

browserSuite('Daily challenge and leaderboards', (env) => {
  test('finish a daily game and find it on the leaderboard, player and replay pages', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/`);
      const daily = page.locator('[data-testid="daily-board"][data-mode="same"][data-preset="easy"]');
      await daily.waitFor();
      assert.match(await page.textContent(testid('daily-countdown')), /\d+:\d\d/);
      const today = new Date().toISOString().slice(0, 10);
      const competition = await daily.getAttribute('data-competition');
      if (competition) {
        assert.match(await daily.locator(testid('daily-commitment')).textContent(), /^[0-9a-f]{64}$/i);
      }
      await daily.locator(testid('daily-play')).click();
      await page.waitForFunction(() => window.__tilecrush.view);
      if (competition) {
        assert.equal(await page.evaluate(() => window.__tilecrush.view.competition), competition);
        assert.match(page.url(), new RegExp(`competition=${competition}&game=`), 'a reload resumes this game');
      } else {
        assert.equal((await page.evaluate(() => window.__tilecrush.view.seed)), today);
      }
      const gameId = await page.evaluate(() => window.__tilecrush.view.game_id);
      const end = await playSameToEnd(page, assert);
      const final = end.score;

      await page.click(testid('link-leaderboard'));
      await page.locator(testid('leaderboard-page')).waitFor();
      const mine = page.locator(`[data-testid="lb-row"].me[data-player="${page.playerName}"]`);
      await mine.waitFor();
      assert.equal(await mine.locator(testid('lb-score')).textContent(), String(final));
      // The daily is open: its games' moves are a solution of the board,
      // so before the close only the player's own row links its replay
      // (below: another player sees none).
      assert.equal(await mine.locator('a', { hasText: 'Replay' }).getAttribute('href'), `/?view=replay&game=${gameId}`);
      // Today's boards are listed first on the page.
      assert.ok(await page.locator(testid('lb-daily-link')).count() >= 9);

      await page.click(testid('lb-around'));
      await page.locator(`[data-testid="lb-row"].me[data-player="${page.playerName}"]`).waitFor();
      assert.match(page.url(), /around=1/);

      await page.locator(`[data-testid="lb-row"].me a`).first().click();
      await page.locator(testid('player-page')).waitFor();
      const best = page.locator('[data-testid="player-best"][data-mode="same"][data-preset="easy"]');
      await best.waitFor();
      assert.match(await best.textContent(), new RegExp(`${final}`));

      // The player's own page links the replay of the open daily's game as
      // "My games" does: the server shows its own player the moves before
      // the close (below: another player sees "after the close").
      assert.equal(await best.locator(testid('player-replay-later')).count(), 0);
      assert.equal(await best.locator('a', { hasText: 'Replay' }).getAttribute('href'), `/?view=replay&game=${gameId}`);
      if (competition) {
        assert.equal(await page.getAttribute(`${testid('history-replay')}[href*="game=${gameId}"]`, 'href'),
          `/?view=replay&game=${gameId}`);
      }
      await best.locator('a', { hasText: 'Replay' }).click();
      await page.locator(testid('replay-page')).waitFor();
      if (competition) {
        // A keyed board cannot be rebuilt from its seed: the game is its
        // list of moves, or a note while the server keeps them secret.
        await page.locator(`${testid('replay-moves')} li`).first().waitFor();
        await page.locator(testid('replay-own-moves')).waitFor();
        assert.equal(await page.locator(testid('replay-unpublished')).count(), 0);
        assert.equal(await page.locator(`${testid('replay-moves')} li`).count(), end.move_count);
        // Its own player replays it on its board before the close.
        await page.waitForFunction(() => window.__tilecrush.replay && window.__tilecrush.replay.published);
        await page.click(testid('btn-last'));
        await page.waitForFunction((n) => window.__tilecrush.replay.step === n && !window.__tilecrush.replay.busy,
          end.move_count);
        const r = await page.evaluate(() => window.__tilecrush.replay);
        assert.equal(r.hashOk, true);
        assert.equal(r.score, final);
        assert.equal(await page.getAttribute(testid('replay-competition'), 'href'), `/?view=competition&id=${competition}`);
        // The server still verifies it, without showing the moves.
        await page.click(testid('btn-verify'));
        await page.locator(testid('replay-verdict')).waitFor();
        assert.match(await page.textContent(testid('replay-verdict')), new RegExp(`Verified.*${final}`));
        assert.equal(await page.locator('[data-testid="replay-page"]').evaluate((el) => /\bnull\b/.test(el.textContent)), false);
        assert.deepEqual(page.errors, []);
        const other = await openPage(env, {});
        try {
          // Another player: no replay on the open daily's leaderboard...
          await other.goto(`${other.base}/?view=leaderboard&competition=${competition}`);
          await other.locator(`[data-testid="lb-row"][data-player="${page.playerName}"]`).waitFor();
          assert.equal(await other.locator(`${testid('lb-table')} a`, { hasText: 'Replay' }).count(), 0);
          assert.equal(await other.textContent(`[data-testid="lb-row"][data-player="${page.playerName}"] ${testid('lb-replay-later')}`),
            'after the close');
          // ...the best's replay comes after the close...
          await other.goto(`${other.base}/?view=player&name=${encodeURIComponent(page.playerName)}`);
          const theirs = other.locator('[data-testid="player-best"][data-mode="same"][data-preset="easy"]');
          await theirs.locator(testid('player-replay-later')).waitFor();
          assert.equal(await theirs.locator('a', { hasText: 'Replay' }).count(), 0);
          // ...and its page, by its address, says when in one note, asks
          // for no replay the server refuses, and still verifies.
          const refused = [];
          other.on('response', (r) => { if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`); });
          await other.goto(`${other.base}/?view=replay&game=${gameId}`);
          await other.locator(testid('replay-unpublished')).waitFor();
          assert.match(await other.textContent(testid('replay-unpublished')), /^This game's moves are published when its board closes, at /);
          assert.equal(await other.locator('[data-testid="replay-page"] .note').count(), 1, 'one note says it');
          assert.equal(await other.locator('[data-testid="replay-page"] h3').count(), 0, 'no empty list of moves');
          assert.equal(await other.locator(testid('replay-own-moves')).count(), 0);
          assert.equal(await other.locator(testid('btn-step')).count(), 0);
          await other.click(testid('btn-verify'));
          await other.locator(testid('replay-verdict')).waitFor();
          assert.match(await other.textContent(testid('replay-verdict')), new RegExp(`Verified.*${final}`));
          assert.deepEqual(refused, []);
          assert.deepEqual(other.errors, []);
        } finally {
          await other.context().close();
        }
        return;
      }
      await page.waitForFunction(() => window.__tilecrush.replay && window.__tilecrush.replay.published);
      await page.click(testid('btn-step'));
      await page.waitForFunction(() => window.__tilecrush.replay.step === 1 && !window.__tilecrush.replay.busy);
      assert.match(await page.textContent(testid('replay-step')), /1/);
      await page.click(testid('btn-verify'));
      await page.locator(testid('replay-verdict')).waitFor();
      assert.match(await page.textContent(testid('replay-verdict')), new RegExp(`Verified.*${final}`));
      assert.deepEqual(page.errors, []);
    });
  });

  test('a visitor reads the home page, leaderboards, seasons, a player\'s page and a competition\'s without a name; Play asks for one', async (t) => {
    const known = await openPage(env, {});
    const visitor = await openPage(env, { name: null });
    try {
      await known.goto(`${known.base}/`);
      await known.locator(testid('me')).waitFor();
      const noDialog = nameNeverAsked(visitor);
      await visitor.goto(`${visitor.base}/?view=leaderboard`);
      await visitor.locator(testid('lb-daily-link')).first().click();
      await visitor.waitForFunction(() => /^(No scores on this board yet\.|1 player|([02-9]|\d\d+) players)$/
        .test(document.querySelector('[data-testid="lb-status"]').textContent));
      assert.equal(await visitor.locator(testid('lb-around')).count(), 0, 'no "around me" without a name');
      // A daily's name says its mode and board once.
      assert.match(await visitor.textContent(testid('lb-heading')),
        /^Leaderboard: (Daily · )?Same Game · Easy( · \d{4}-\d\d-\d\d)?$/);
      // Headings only over rows: an empty board (nobody plays the last of
      // today's boards in this suite) says so in its status line alone.
      const headings = async () => visitor.locator(`${testid('lb-table')} th`).count();
      const empty = (await visitor.textContent(testid('lb-status'))).startsWith('No scores');
      assert.equal(await headings() > 0, !empty);
      await visitor.locator(testid('lb-daily-link')).last().click();
      await visitor.waitForFunction(() => document.querySelector('[data-testid="lb-status"]').textContent
        === 'No scores on this board yet.');
      assert.equal(await headings(), 0);
      // The filter shows the board on screen (the last of today's: hidden colours, large).
      assert.deepEqual([await visitor.inputValue(testid('lb-mode')), await visitor.inputValue(testid('lb-preset'))],
        ['hidden', 'large']);
      await noDialog('leaderboard');
      await visitor.click(testid('nav-seasons'));
      await visitor.locator(testid('seasons-page')).waitFor();
      await noDialog('seasons');
      await visitor.goto(`${visitor.base}/?view=player&name=${encodeURIComponent(known.playerName)}`);
      await visitor.locator(testid('player-page')).waitFor();
      assert.equal(await visitor.textContent(testid('player-name')), `Player ${known.playerName}`);
      await noDialog('player');
      assert.ok(await visitor.locator(testid('net-status')).isHidden(), 'no connection to report');
      // A competition's page (today's first daily) is read without a name
      // too; its Play asks for one, and "Not now" leaves the visitor there.
      const comp = await visitor.evaluate(async () => (await (await fetch('/api/daily')).json()).boards[0].competition);
      await visitor.goto(`${visitor.base}/?view=competition&id=${comp}`);
      await visitor.locator(testid('comp-board')).waitFor();
      await noDialog('competition');
      await visitor.click(testid('comp-play'));
      await visitor.locator(testid('name-dialog')).waitFor();
      await visitor.click(testid('name-cancel'));
      await visitor.locator(testid('comp-board')).waitFor();
      assert.equal(await visitor.locator(testid('name-dialog')).count(), 0);
      assert.equal(new URL(visitor.url()).searchParams.get('id'), comp);
      assert.ok(await visitor.locator(testid('comp-play')).isEnabled(), 'Play may be pressed again');
      // The home page is a visitor's too; playing needs a player: the name
      // is asked there.
      await visitor.click(testid('nav-play'));
      await visitor.locator(testid('daily-play')).first().waitFor();
      await noDialog('home');
      await visitor.locator(testid('daily-play')).first().click();
      await visitor.locator(testid('name-dialog')).waitFor();
      assert.deepEqual(visitor.errors, []);
      assert.deepEqual(known.errors, []);
    } finally {
      await visitor.context().close();
      await known.context().close();
    }
  });
});
