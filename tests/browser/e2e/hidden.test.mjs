// Hidden colours in the browser: hovering peeks (one peek per newly hovered
// cell, colour shown while hovered, hidden on leave), then a group found by
// peeking is selected cell by cell and disappears; score and peeks match the
// server and the timer runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle, gameView, hoverCell, clickCell, cellPoint } from '../lib/harness.mjs';

const tile = (x, y) => `[data-testid="cell"][data-x="${x}"][data-y="${y}"]`;

// Hovers (x, y) and returns the colour its peek revealed.
async function peekColor(page, x, y, colors) {
  const k = `${x},${y}`;
  if (colors.has(k)) return colors.get(k);
  const before = await page.evaluate(() => window.__tilecrush.view.peeks);
  await hoverCell(page, x, y);
  await page.waitForFunction((n) => window.__tilecrush.view.peeks > n, before);
  await waitIdle(page);
  const shown = await page.getAttribute(tile(x, y), 'data-shown');
  assert.ok(shown, `peeked cell ${k} shows its colour while hovered`);
  colors.set(k, Number(shown));
  return Number(shown);
}

browserSuite('Hidden colours', (env) => {
  test('peek on hover, select a group found by peeking, and remove it', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=browser-hidden`);
      await waitIdle(page);
      const v0 = await gameView(page);
      assert.ok(v0.board.flat().every((c) => c === -1), 'every colour starts hidden');
      assert.equal(await page.textContent(testid('timer')), '0:00');

      // One peek per newly hovered cell: moving inside the same cell sends none.
      const colors = new Map();
      const H = v0.height;
      await peekColor(page, 0, H - 1, colors);
      const p = await cellPoint(page, 0, H - 1);
      await page.mouse.move(p.x + 3, p.y + 2);
      await page.mouse.move(p.x - 2, p.y - 3);
      await waitIdle(page);
      assert.equal((await gameView(page)).peeks, 1);
      assert.equal(await page.textContent(testid('peeks')), '1');

      // Flood the group of a bottom-row cell by peeking its neighbours; move
      // right along the row until a group of two or more turns up.
      let start = null;
      let color = 0;
      let group = [];
      for (let sx = 0; sx < v0.width && group.length < 2; sx++) {
        start = [sx, H - 1];
        color = await peekColor(page, sx, H - 1, colors);
        group = [start];
        const seen = new Set([start.join(',')]);
        for (let i = 0; i < group.length; i++) {
          const [cx, cy] = group[i];
          for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
            const nx = cx + dx;
            const ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= v0.width || ny >= H || seen.has(`${nx},${ny}`)) continue;
            seen.add(`${nx},${ny}`);
            if (await peekColor(page, nx, ny, colors) === color) group.push([nx, ny]);
          }
        }
      }
      assert.ok(group.length >= 2, 'a group of two or more on the bottom row');
      // Leaving a cell hides its colour again.
      const last = [...colors.keys()].pop().split(',').map(Number);
      await page.mouse.move(1, 1);
      await page.waitForFunction((sel) => !document.querySelector(sel).dataset.shown, tile(last[0], last[1]));

      const peeks = (await gameView(page)).peeks;
      assert.equal(peeks, colors.size);
      // Select in flood order, so each new cell touches the selection. The
      // pointer passing onto a cell peeks it first (hover), which costs a
      // point like any peek.
      for (const [i, [x, y]] of group.entries()) {
        await clickCell(page, x, y);
        await page.waitForFunction(([cx, cy]) => {
          const tc = window.__tilecrush;
          if (tc.busy) return false;
          return tc.model.selected.has(`${cx},${cy}`)
            || (tc.lastReply && tc.lastReply.events.some((e) => e.kind === 'remove'));
        }, [x, y]);
        await waitIdle(page);
        if (i < group.length - 1) {
          assert.equal(await page.getAttribute(tile(x, y), 'aria-selected'), 'true');
          assert.equal(await page.getAttribute(tile(x, y), 'data-shown'), String(color), 'the selection stays visible');
        }
      }
      await page.mouse.move(1, 1);
      const v1 = await gameView(page);
      const reply = await page.evaluate(() => window.__tilecrush.lastReply);
      assert.ok(reply.events.some((e) => e.kind === 'remove' && e.cells.length === group.length), 'the group is removed');
      const cleared = v1.over && v1.board.flat().every((c) => c === 0);
      assert.equal(v1.score, 10 * group.length - v1.peeks + (cleared ? 1000 : 0));
      assert.equal(await page.textContent(testid('peeks')), String(v1.peeks));
      assert.equal(await page.textContent(testid('score')), String(reply.score));
      assert.equal(v1.selected.length, 0);
      const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(mine, theirs);
      await page.waitForTimeout(1100);
      assert.notEqual(await page.textContent(testid('timer')), '0:00', 'the timer runs from the first move');
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });
});
