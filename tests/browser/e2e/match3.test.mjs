// Match-3 in the browser: a valid swap by two clicks (events animated, hash
// equal), a valid swap by dragging, and an invalid swap that bounces back
// (the server answers invalid_move and nothing changes).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, withPage, testid, waitIdle, gameView, openGame, clickCell, dragCell, cellPoint,
} from '../lib/harness.mjs';
import { expectHashesEqual, swaps } from '../lib/moves.mjs';

browserSuite('Match-3', (env) => {
  test('valid swap by clicks, another by dragging; moves left counts down', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const v0 = await openGame(page, 'mode=match3&preset=classic&seed=browser-m3');
      assert.equal(v0.moves_left, 30);
      assert.equal(await page.textContent(testid('moves-left')), '30');
      const [a, b] = swaps(v0.board).valid[0];
      // A press that drifts into the next tile, too short for a swipe, is a
      // tap on the tile pressed: it picks that one, not its neighbour.
      const p0 = await cellPoint(page, 0, 1);
      const p1 = await cellPoint(page, 1, 1);
      await page.mouse.move(p0.x, p0.y);
      await page.mouse.down();
      await page.mouse.move(p0.x + (p1.x - p0.x) * 0.6, p0.y, { steps: 3 });
      await page.mouse.up();
      assert.deepEqual(await page.$$eval('[data-testid="cell"].picked', (els) => els.map((e) => [e.dataset.x, e.dataset.y])),
        [['0', '1']]);
      // Tapped again, the pick is dropped.
      await clickCell(page, 0, 1);
      assert.equal(await page.locator('[data-testid="cell"].picked').count(), 0);
      await clickCell(page, a[0], a[1]);
      await page.waitForSelector('[data-testid="cell"].picked');
      await clickCell(page, b[0], b[1]);
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      const reply = await page.evaluate(() => window.__tilecrush.lastReply);
      assert.equal(reply.events[0].kind, 'swap');
      assert.ok(reply.events.some((e) => e.kind === 'remove' && e.wave === 1));
      assert.equal(await page.textContent(testid('score')), String(reply.score));
      assert.equal(await page.textContent(testid('moves-left')), '29');
      await expectHashesEqual(page);

      const v1 = await gameView(page);
      const [c, d] = swaps(v1.board).valid[0];
      await dragCell(page, c, d);
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 2);
      await waitIdle(page);
      await expectHashesEqual(page);
      assert.equal(await page.textContent(testid('moves-left')), '28');
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });

  test('an invalid swap bounces back and changes nothing', async (t) => {
    await withPage(t, env, { anim: 1 }, async (page) => {
      await page.goto(`${page.base}/?mode=match3&preset=classic&seed=browser-m3-bad`);
      await waitIdle(page);
      await page.evaluate(() => {
        window.__bounced = false;
        new MutationObserver((list) => {
          if (list.some((m) => m.target.classList && m.target.classList.contains('bouncing'))) window.__bounced = true;
        }).observe(document.querySelector('[data-testid="board"]'), { attributes: true, subtree: true, attributeFilter: ['class'] });
      });
      const v0 = await gameView(page);
      const hash0 = await page.evaluate(() => window.__tilecrush.lastStateHash);
      const [a, b] = swaps(v0.board).invalid[0];
      await clickCell(page, a[0], a[1]);
      await clickCell(page, b[0], b[1]);
      await page.waitForFunction(() => window.__bounced === true);
      await waitIdle(page);
      assert.equal(await page.textContent(testid('message')), 'That swap makes no line of three.', 'the refusal says why');
      const v1 = await gameView(page);
      assert.deepEqual(v1.board, v0.board);
      assert.equal(v1.move_count, 0);
      assert.equal(await page.evaluate(() => window.__tilecrush.lastStateHash), hash0);
      // The two tiles are back on their own cells.
      for (const [x, y] of [a, b]) {
        const tile = page.locator(`[data-testid="cell"][data-x="${x}"][data-y="${y}"]`);
        assert.equal(await tile.getAttribute('data-color'), String(v0.board[y][x]));
        const style = await tile.evaluate((el) => [el.style.getPropertyValue('--x'), el.style.getPropertyValue('--y')]);
        assert.deepEqual(style.map(Number), [x, y]);
      }
      // The next pick starts another swap: the refusal of the last one goes.
      await clickCell(page, a[0], a[1]);
      assert.equal(await page.textContent(testid('message')), '');
      assert.deepEqual(page.errors, []);
    });
  });

  test('hint highlights a valid swap', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 860 } }, async (page) => {
      await page.goto(`${page.base}/?mode=match3&preset=big&seed=browser-m3-hint`);
      await waitIdle(page);
      // On a desktop the buttons under the board are on screen without scrolling.
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      const giveUp = await page.locator(testid('btn-resign')).boundingBox();
      assert.ok(giveUp.y + giveUp.height <= 860, `Give up ends at y=${giveUp.y + giveUp.height}, below the window`);
      await page.click(testid('btn-hint'));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"].hint').length === 2);
      const cells = await page.$$eval('[data-testid="cell"].hint', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
      const v = await gameView(page);
      const { valid } = swaps(v.board);
      const key = (p) => p.join(',');
      assert.ok(valid.some(([p, q]) => new Set([key(p), key(q)]).has(key(cells[0])) && new Set([key(p), key(q)]).has(key(cells[1]))),
        'the highlighted pair is a valid swap');
      // Said for a screen reader, with the keyboard's cursor on its first tile.
      const [[ax, ay], [bx, by]] = cells.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
      const said = await page.textContent(testid('announce'));
      assert.match(said, /^Hint: swap column \d+, row \d+ with column \d+, row \d+\.$/);
      assert.ok(said.includes(`column ${ax + 1}, row ${ay + 1}`) && said.includes(`column ${bx + 1}, row ${by + 1}`), said);
      const cursor = await page.$eval(testid('board-cursor'), (e) => [Number(e.dataset.x), Number(e.dataset.y)]);
      assert.ok(cells.some((c) => c[0] === cursor[0] && c[1] === cursor[1]), `cursor at ${cursor}`);
      assert.equal(await page.isVisible(testid('btn-undo')), false, 'no undo in ranked match-3');
    });
  });
});
