// The replay viewer: a finished Same Game on a casual board (its moves are
// public) plays back on its board from GET /api/games/{id}/replay, with the
// animations of live play; stepping forward and back, jumping to the end,
// the scrubber and an address for a move all land on the board whose
// state_hash is the server's, ending at the game's final score. A daily's
// game before the close has a replay for its own player only (its moves
// are secret to others), and a hidden game on a casual board none (never).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, openPage, testid, playSameToEnd, playLargestGroups, giveUp } from '../lib/harness.mjs';

const replayState = (page) => page.evaluate(() => window.__tilecrush.replay);

async function waitStep(page, n) {
  await page.waitForFunction((want) => {
    const r = window.__tilecrush.replay;
    return r && r.step === want && !r.busy;
  }, n, { timeout: 20000 });
  return replayState(page);
}

browserSuite('Replay viewer', (env) => {
  test('a finished game plays back step by step to its final score and state_hash', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=replay-viewer`);
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      const end = await playSameToEnd(page, assert);
      const gameId = end.game_id;
      const finalHash = await page.evaluate(() => window.__tilecrush.lastStateHash);

      await page.goto(`${page.base}/?view=replay&game=${gameId}`);
      let r = await waitStep(page, 0);
      assert.equal(r.published, true);
      assert.equal(r.valid, true);
      assert.equal(r.steps, end.move_count, 'a game over by the rules has one step per move');
      assert.equal(r.hashOk, true);

      await page.click(testid('btn-step'));
      r = await waitStep(page, 1);
      assert.equal(r.hashOk, true);
      assert.equal(await page.textContent(testid('replay-step')), `Move 1 of ${end.move_count}`);
      assert.match(page.url(), /move=1/);

      await page.click(testid('btn-last'));
      r = await waitStep(page, end.move_count);
      assert.equal(r.hashOk, true);
      assert.equal(r.score, end.score);
      assert.equal(r.stateHash, finalHash, 'the last step is the board the player ended on');

      await page.click(testid('btn-back'));
      r = await waitStep(page, end.move_count - 1);
      assert.equal(r.hashOk, true);

      await page.locator(testid('replay-scrubber')).evaluate((el) => {
        el.value = '2';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      r = await waitStep(page, 2);
      assert.equal(r.hashOk, true);

      // Autoplay from move 2 runs to the end, every step checked.
      await page.selectOption(testid('replay-speed'), '3');
      await page.click(testid('btn-autoplay'));
      r = await waitStep(page, end.move_count);
      assert.equal(r.hashOk, true);
      assert.equal(r.playing, false);

      // A move's own address opens the board after that move.
      await page.goto(`${page.base}/?view=replay&game=${gameId}&move=3`);
      r = await waitStep(page, 3);
      assert.equal(r.hashOk, true);
      await page.locator('[data-testid="replay-move"]').nth(0).click();
      r = await waitStep(page, 1);
      assert.equal(r.hashOk, true);
      assert.deepEqual(page.errors, []);
    });
  });

  test('a game given up after 3 moves replays as moves 1 to 3, then the end of the game (not a fourth move)', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=replay-given-up`);
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      await playLargestGroups(page, assert, 3);
      await giveUp(page);
      await page.waitForFunction(() => window.__tilecrush.view.over);
      const gameId = await page.evaluate(() => window.__tilecrush.view.game_id);

      await page.goto(`${page.base}/?view=replay&game=${gameId}`);
      let r = await waitStep(page, 0);
      assert.equal(r.steps, 4, 'three moves and the end');
      assert.equal(await page.textContent(testid('replay-step')), 'Move 0 of 3');
      await page.click(testid('btn-last'));
      await waitStep(page, 4);
      assert.equal(await page.textContent(testid('replay-step')), 'End of the game');
      assert.equal(await page.textContent(testid('btn-move-link')), 'Copy the link to the end of the game');
      await page.click(testid('btn-back'));
      r = await waitStep(page, 3);
      assert.equal(r.hashOk, true);
      assert.equal(await page.textContent(testid('replay-step')), 'Move 3 of 3');
      assert.equal(await page.textContent(testid('btn-move-link')), 'Copy the link to move 3');
      // In Japanese (the address of move 3).
      await page.evaluate(() => localStorage.setItem('tilecrush.lang', 'ja'));
      await page.goto(`${page.base}/?view=replay&game=${gameId}&move=3`);
      await waitStep(page, 3);
      assert.equal(await page.textContent(testid('replay-step')), '3手中 3手目');
      await page.click(testid('btn-step'));
      await waitStep(page, 4);
      assert.equal(await page.textContent(testid('replay-step')), 'ゲーム終了');
      assert.deepEqual(page.errors, []);
    });
  });

  test("a daily's game has no replay before the close but for its player; a casual hidden game never has one", async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/`);
      const row = page.locator('[data-testid="daily-board"][data-mode="same"][data-preset="easy"]');
      await row.locator(testid('daily-play')).click();
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      await playLargestGroups(page, assert, 1);
      await page.click(testid('btn-resign'));
      // Giving up a running attempt asks first (rules.md, "Attempts").
      await page.click(testid('confirm-ok'));
      await page.waitForFunction(() => window.__tilecrush.view.over);
      const daily = await page.evaluate(() => window.__tilecrush.view.game_id);
      const answer = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/replay`)).status, daily);
      assert.equal(answer, 403);
      // Its own player replays it (with their token), and is told why only they do.
      await page.goto(`${page.base}/?view=replay&game=${daily}`);
      await page.waitForFunction(() => window.__tilecrush.replay && window.__tilecrush.replay.published);
      await page.locator(testid('replay-own-moves')).waitFor();
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=replay-hidden`);
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy);
      await giveUp(page);
      await page.waitForFunction(() => window.__tilecrush.view.over);
      const hidden = await page.evaluate(() => window.__tilecrush.view.game_id);
      // Its own player finds it on the board's leaderboard with a replay link.
      await page.goto(`${page.base}/?view=leaderboard&mode=hidden&preset=classic&seed=replay-hidden`);
      await page.locator(`[data-testid="lb-row"] a[href*="game=${hidden}"]`).waitFor();
      assert.deepEqual(page.errors, []);

      // Another player: the daily's game not before the close, the casual
      // hidden game never.
      const other = await openPage(env, {});
      try {
        await other.goto(`${other.base}/?view=replay&game=${daily}`);
        await other.locator(testid('replay-unpublished')).waitFor();
        assert.match(await other.textContent(testid('replay-unpublished')), /published when its board closes/);
        assert.equal(await other.locator(testid('btn-step')).count(), 0);
        assert.equal(await other.locator('[data-testid="replay-page"] .note').count(), 1, 'one note says it');
        await other.goto(`${other.base}/?view=replay&game=${hidden}`);
        await other.locator(testid('replay-unpublished')).waitFor();
        assert.match(await other.textContent(testid('replay-unpublished')), /stay secret/);
        assert.equal(await other.locator('[data-testid="replay-page"] .note').count(), 1, 'one note says it');
        // Nor does anything link another player to it: its board's
        // leaderboard and its player's page say it is secret.
        const name = await page.evaluate(() => JSON.parse(localStorage.getItem('tilecrush.identity')).name);
        await other.goto(`${other.base}/?view=leaderboard&mode=hidden&preset=classic&seed=replay-hidden`);
        await other.locator(`[data-testid="lb-row"][data-player="${name}"]`).waitFor();
        assert.equal(await other.locator('[data-testid="lb-row"] a[href*="view=replay"]').count(), 0);
        await other.goto(`${other.base}/?view=player&name=${encodeURIComponent(name)}`);
        await other.locator('[data-testid="player-best"][data-mode="hidden"]').waitFor();
        assert.equal(await other.locator('[data-testid="player-best"][data-mode="hidden"] a[href*="view=replay"]').count(), 0);
        await other.locator('[data-testid="player-best"][data-mode="hidden"] [data-testid="player-replay-never"]').waitFor();
        assert.deepEqual(other.errors, []);
      } finally {
        await other.context().close();
      }
    });
  });
});
