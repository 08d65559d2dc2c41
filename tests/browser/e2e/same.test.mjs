// Same Game in the browser against a real server: first visit (home
// without a name, the name dialog at Play), hover preview, undo, hint, and a whole game on easy to game over,
// with the score on screen equal to the server's final score.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, withPage, testid, nameNeverAsked, waitIdle, gameView, openGame, hoverCell, clickCell, groupOf, playSameToEnd, uniqueName, giveUp,
} from '../lib/harness.mjs';

browserSuite('Same Game', (env) => {
  test('first visit: the home page asks nothing, Play asks for a name (Not now goes back) and stores the token', async (t) => {
    await withPage(t, env, { name: null }, async (page) => {
      const noDialog = nameNeverAsked(page);
      const newGames = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => {
        if (String(f.payload).includes('"new_game"')) newGames.push(String(f.payload));
      }));
      await page.goto(`${page.base}/`);
      await page.locator(testid('daily-play')).first().waitFor();
      await noDialog('home');
      // A board needs a player. "Not now" (and Escape) close the dialog and
      // bring the visitor back home, unconnected; the next Play asks again.
      await page.click(testid('btn-random'));
      await page.locator(testid('name-dialog')).waitFor();
      await page.click(testid('name-cancel'));
      await page.locator(testid('home-page')).waitFor();
      assert.equal(await page.locator(testid('name-dialog')).count(), 0);
      assert.ok(await page.locator(testid('net-status')).isHidden(), 'no connection after Not now');
      assert.equal(new URL(page.url()).search, '');
      await page.locator(testid('daily-play')).first().click();
      await page.locator(testid('name-dialog')).waitFor();
      await page.mouse.click(5, 5);  // on the backdrop: the focus leaves the form
      await page.keyboard.press('Escape');
      await page.locator(testid('home-page')).waitFor();
      assert.equal(await page.locator(testid('name-dialog')).count(), 0);
      await page.click(testid('btn-random'));
      await page.locator(testid('name-dialog')).waitFor();
      // A name that would show as nothing is refused in the dialog, unsent.
      await page.fill(testid('name-input'), '\u200B\u200B');
      await page.click(testid('name-submit'));
      assert.equal(await page.textContent(testid('name-error')),
        'A name cannot hold invisible characters (such as a zero-width space or a direction mark).');
      await page.fill(testid('name-input'), '\u2800\u200D');
      await page.click(testid('name-submit'));
      assert.equal(await page.textContent(testid('name-error')), 'A name needs at least one visible character.');
      assert.equal(await page.locator(testid('name-dialog')).count(), 1);
      const name = uniqueName('new');
      await page.fill(testid('name-input'), name);
      await page.click(testid('name-submit'));
      await page.locator(testid('me')).waitFor();
      assert.equal(await page.textContent(testid('me')), name);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('tilecrush.identity')));
      assert.equal(stored.name, name);
      assert.ok(stored.token, 'token stored');
      // Only the board asked for last is dealt: the pages turned down by
      // Not now and Escape sent nothing once the name was given.
      await waitIdle(page);
      await page.waitForTimeout(300);
      assert.equal(newGames.length, 1, newGames.join('\n'));
      assert.equal(new URL(page.url()).searchParams.get('seed'), await page.evaluate(() => window.__tilecrush.view.seed));
      assert.deepEqual(page.errors, []);
    });
  });

  test('hover preview shows the group and its points; click, undo and hint', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const v = await openGame(page, 'mode=same&preset=easy&seed=browser-preview');
      assert.equal(v.width, 10);
      assert.equal(v.height, 10);
      let target = null;
      for (let y = 0; y < 10 && !target; y++) {
        for (let x = 0; x < 10 && !target; x++) {
          const g = groupOf(v.board, x, y);
          if (g.length >= 3) target = { x, y, g };
        }
      }
      assert.ok(target, 'the board has a group of three or more');
      assert.ok(await page.locator(testid('btn-undo')).isDisabled(), 'nothing to undo before the first move');
      await hoverCell(page, target.x, target.y);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="cell"].preview').length === n,
        target.g.length);
      const points = (target.g.length - 2) ** 2;
      assert.match(await page.textContent(testid('preview-points')), new RegExp(`\\+${points}\\b`));

      const before = await page.evaluate(() => window.__tilecrush.lastStateHash);
      await clickCell(page, target.x, target.y);
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      assert.equal(await page.textContent(testid('score')), String(points));
      assert.equal(await page.textContent(testid('moves')), '1');
      const after = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(after[0], after[1]);

      await page.click(testid('btn-undo'));
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 0);
      await waitIdle(page);
      assert.equal(await page.evaluate(() => window.__tilecrush.lastStateHash), before);
      assert.equal(await page.textContent(testid('score')), '0');
      assert.equal(await page.textContent(testid('announce')), 'Move taken back. Score 0. Moves: 0.');
      assert.ok(await page.locator(testid('btn-undo')).isDisabled(), 'nothing left to undo');
      // Undo, disabled at the start, hands the focus to the board, not to the page.
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'board');

      await page.click(testid('btn-hint'));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"].hint').length >= 2);
      const hinted = await page.$$eval('[data-testid="cell"].hint', (els) => els.length);
      assert.match(await page.textContent(testid('announce')), new RegExp(`^Hint: column \\d+, row \\d+, a group of ${hinted}\\.$`));
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });

  test('a casual game left by New board, or opened in another tab, is resumed from its address', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const v = await openGame(page, 'mode=same&preset=easy&seed=browser-keep');
      let target = null;
      for (let y = 0; y < 10 && !target; y++) {
        for (let x = 0; x < 10 && !target; x++) if (groupOf(v.board, x, y).length >= 2) target = { x, y };
      }
      await clickCell(page, target.x, target.y);
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      const score = await page.textContent(testid('score'));
      await page.click(testid('btn-new'));
      await page.waitForFunction((id) => window.__tilecrush.view && window.__tilecrush.view.game_id !== id, v.game_id);
      await page.goBack();
      await page.waitForFunction((id) => window.__tilecrush.view && window.__tilecrush.view.game_id === id, v.game_id);
      await waitIdle(page);
      assert.equal((await gameView(page)).move_count, 1);
      assert.equal(await page.textContent(testid('score')), score);
      // The address again (as in another tab): the same game, not a new deal.
      await page.reload();
      await page.waitForFunction(() => window.__tilecrush.view && window.__tilecrush.view.move_count === 1);
      assert.equal(await page.evaluate(() => window.__tilecrush.view.game_id), v.game_id);
      // Given up, it is over: the address deals the board afresh. A hint
      // shown before does not stay on the finished board.
      await page.click(testid('btn-hint'));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"].hint').length >= 2);
      await giveUp(page);
      await page.locator(testid('btn-again')).waitFor();
      assert.equal(await page.locator('[data-testid="cell"].hint').count(), 0);
      await page.click(testid('btn-again'));
      await page.waitForFunction((id) => window.__tilecrush.view && window.__tilecrush.view.game_id !== id
        && window.__tilecrush.view.move_count === 0, v.game_id);
      assert.deepEqual(page.errors, []);
    });
  });

  test('touch: the first tap previews, a second tap on the group confirms', async (t) => {
    const contextOptions = { hasTouch: true, isMobile: true };
    await withPage(t, env, { contextOptions, viewport: { width: 390, height: 800 } }, async (page) => {
      // hard is 20 wide: under 22 px a tile on a phone, where a previewed
      // tile once grew to a line of text's height and was drawn rows below.
      const v = await openGame(page, 'mode=same&preset=hard&seed=browser-touch');
      let g = null;
      for (let y = v.height - 1; y >= 0 && !g; y--) {
        for (let x = 0; x < v.width && !g; x++) {
          const cells = groupOf(v.board, x, y);
          if (cells.length >= 2) g = cells;
        }
      }
      const box = await page.locator(testid('board')).boundingBox();
      const at = ([x, y]) => ({ x: ((x + 0.5) * box.width) / v.width, y: ((y + 0.5) * box.height) / v.height });
      await page.tap(testid('board'), { position: at(g[0]) });
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="cell"].preview').length === n, g.length);
      assert.equal((await gameView(page)).move_count, 0, 'the first tap only previews');
      // A previewed tile keeps its size and its place in the grid.
      const places = await page.evaluate(() => {
        const board = document.querySelector('[data-testid="board"]').getBoundingClientRect();
        return [...document.querySelectorAll('[data-testid="cell"]')].map((c) => {
          const r = c.getBoundingClientRect();
          return { preview: c.classList.contains('preview'), h: r.height, w: r.width,
                   x: Number(c.dataset.x), y: Number(c.dataset.y), left: r.left - board.left, top: r.top - board.top };
        });
      });
      const plain = places.find((c) => !c.preview);
      for (const c of places.filter((p) => p.preview)) {
        assert.ok(Math.abs(c.h - plain.h) < 0.5 && Math.abs(c.w - plain.w) < 0.5,
          `previewed tile (${c.x},${c.y}) is ${c.w}x${c.h}, others ${plain.w}x${plain.h}`);
        const top = plain.top + (c.y - plain.y) * plain.h, left = plain.left + (c.x - plain.x) * plain.w;
        assert.ok(Math.abs(c.top - top) < 1 && Math.abs(c.left - left) < 1,
          `previewed tile (${c.x},${c.y}) is drawn at ${c.left},${c.top}`);
      }
      await page.tap(testid('board'), { position: at(g[g.length - 1]) });
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(mine, theirs);
    });
  });

  test('plays easy to game over; the screen shows the server\'s final score', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-full`);
      const end = await playSameToEnd(page, assert);
      assert.equal(end.over, true);
      await page.locator(testid('gameover')).waitFor();
      const reply = await page.evaluate(() => window.__tilecrush.lastReply);
      const over = reply.events.find((e) => e.kind === 'game_over');
      assert.ok(over, 'the last reply ends with game_over');
      assert.equal(reply.score, over.final_score);
      assert.equal(await page.textContent(testid('final-score')), String(over.final_score));
      assert.equal(await page.textContent(testid('score')), String(over.final_score));
      assert.match(await page.textContent(testid('gameover-reason')), /No moves left|Board cleared/);

      const record = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), end.game_id);
      assert.equal(record.score, over.final_score);
      assert.equal(record.moves.length, end.move_count);
      const share = await page.inputValue(testid('share-link'));
      assert.match(share, /\?mode=same&preset=easy&seed=browser-full$/);
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });
});
