// Hidden colours in the browser: a peek is deliberate (peek mode, then a
// click; one peek per cell while the pointer stays; colour shown while
// pointed at, hidden on leave), then a group found by peeking is selected
// cell by cell and disappears; score and peeks match the server and the
// timer runs. Sweeping the pointer over every cell spends nothing and
// starts no clock; the page states the rules and the cost of a peek before
// the first move; the P key peeks the keyboard cursor's cell; on touch a
// tap selects, and peeks only in peek mode.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, withPage, testid, waitIdle, gameView, openGame, hoverCell, clickCell, cellPoint, giveUp,
} from '../lib/harness.mjs';

const tile = (x, y) => `[data-testid="cell"][data-x="${x}"][data-y="${y}"]`;

async function setPeekMode(page, on) {
  if ((await page.getAttribute(testid('btn-peek'), 'aria-pressed')) !== String(on)) await page.click(testid('btn-peek'));
  assert.equal(await page.getAttribute(testid('btn-peek'), 'aria-pressed'), String(on));
}

// Peeks (x, y) in peek mode (a click) and returns the colour it revealed.
async function peekColor(page, x, y, colors) {
  const k = `${x},${y}`;
  if (colors.has(k)) return colors.get(k);
  await setPeekMode(page, true);
  const before = await page.evaluate(() => window.__tilecrush.view.peeks);
  await clickCell(page, x, y);
  await page.waitForFunction((n) => window.__tilecrush.view.peeks > n, before);
  await waitIdle(page);
  const shown = await page.getAttribute(tile(x, y), 'data-shown');
  assert.ok(shown, `peeked cell ${k} shows its colour while hovered`);
  colors.set(k, Number(shown));
  return Number(shown);
}

browserSuite('Hidden colours', (env) => {
  test('peek in peek mode, select a group found by peeking, and remove it', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=browser-hidden`);
      await waitIdle(page);
      await page.locator(testid('board')).scrollIntoViewIfNeeded();
      const v0 = await gameView(page);
      assert.ok(v0.board.flat().every((c) => c === -1), 'every colour starts hidden');
      assert.equal(await page.textContent(testid('timer')), '0:00');

      // One peek per click: moving inside the same cell or clicking it again
      // while its colour shows sends none.
      const colors = new Map();
      const H = v0.height;
      await peekColor(page, 0, H - 1, colors);
      const p = await cellPoint(page, 0, H - 1);
      await page.mouse.move(p.x + 3, p.y + 2);
      await page.mouse.move(p.x - 2, p.y - 3);
      await page.mouse.down();
      await page.mouse.up();
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
      // pointer passing over other cells on its way peeks nothing.
      await setPeekMode(page, false);
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
      assert.equal(v1.peeks, peeks, 'selecting peeked nothing');
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

  test('on a phone the rules start closed, the board on screen, and the Peek button says the cost', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=browser-hidden-phone`);
      await waitIdle(page);
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid="howto"]').open), false);
      assert.match(await page.textContent(testid('btn-peek')), /−1 point/);
      const board = await page.locator(testid('board')).boundingBox();
      assert.ok(board.y < 844, `the board starts at y=${board.y}`);
    });
  });

  test('the rules and the cost of a peek are shown first; sweeping the pointer over every cell spends nothing', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 860 } }, async (page) => {
      const sent = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => {
        try { sent.push(JSON.parse(String(f.payload)).type); } catch { /* not JSON */ }
      }));
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=browser-hidden-sweep`);
      await waitIdle(page);
      // Before the first action: the rules, open, with the cost of a peek.
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid="howto"]').open), true);
      assert.ok(await page.isVisible(testid('howto-rules')));
      const rules = await page.textContent(testid('howto-rules'));
      assert.match(rules, /costs 1 point/);
      assert.match(rules, /Hovering never peeks/);
      assert.match(await page.textContent(testid('btn-peek')), /−1 point/);
      assert.equal(await page.getAttribute(testid('btn-peek'), 'aria-pressed'), 'false');
      // On a desktop, with the rules open above it, the board still leaves
      // room for Give up and New board under it without scrolling.
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      for (const button of ['btn-resign', 'btn-new']) {
        const box = await page.locator(testid(button)).boundingBox();
        assert.ok(box.y + box.height <= 860, `${button} ends at y=${box.y + box.height}, below the window`);
      }

      const v0 = await gameView(page);
      await page.locator(testid('board')).scrollIntoViewIfNeeded();
      const box = await page.locator(testid('board')).boundingBox();
      // Row by row, and a diagonal sweep in small steps, in and out.
      for (let y = 0; y < v0.height; y++) {
        for (let x = 0; x < v0.width; x++) await hoverCell(page, x, y);
      }
      await page.mouse.move(box.x + 1, box.y + 1);
      await page.mouse.move(box.x + box.width - 1, box.y + box.height - 1, { steps: 40 });
      await page.mouse.move(1, 1);
      await page.waitForTimeout(300);
      await waitIdle(page);
      const v1 = await gameView(page);
      assert.equal(v1.peeks, 0);
      assert.equal(v1.score, 0);
      assert.equal(v1.move_count, 0);
      assert.equal(await page.textContent(testid('peeks')), '0');
      assert.equal(await page.textContent(testid('score')), '0');
      assert.equal(await page.textContent(testid('timer')), '0:00');
      assert.equal(await page.locator('[data-testid="cell"][data-shown]').count(), 0);
      assert.ok(!sent.includes('peek') && !sent.includes('select'), `nothing sent for hovering: ${sent.join(',')}`);
      // The server agrees: nothing spent, no clock.
      const fresh = await page.evaluate(async (id) => (await window.__tilecrush.net.request('resume', { game_id: id })).game,
        v0.game_id);
      assert.equal(fresh.peeks, 0);
      assert.equal(fresh.move_count, 0);
      assert.equal(fresh.elapsed_ms, 0);
      await page.waitForTimeout(1100);
      assert.equal(await page.textContent(testid('timer')), '0:00', 'no clock runs');

      // A deliberate peek works: peek mode, a click; one point, the clock starts.
      await setPeekMode(page, true);
      assert.match(await page.textContent(testid('announce')), /Peek mode on/);
      await clickCell(page, 4, 4);
      await page.waitForFunction(() => window.__tilecrush.view.peeks === 1);
      await waitIdle(page);
      const shown = await page.getAttribute(tile(4, 4), 'data-shown');
      assert.ok(Number(shown) >= 1, 'the peeked colour shows');
      assert.equal(await page.textContent(testid('score')), '-1');
      assert.equal(await page.textContent(testid('peeks')), '1');
      assert.match(await page.textContent(testid('announce')), new RegExp(`Peeked column 5, row 5: [a-z]+, colour ${shown}\\. Score −1, now −1\\.`));
      // Peek mode stays on for the next peek; hovering in it still peeks nothing.
      await hoverCell(page, 6, 6);
      await hoverCell(page, 7, 6);
      await page.waitForTimeout(200);
      await waitIdle(page);
      assert.equal((await gameView(page)).peeks, 1);
      assert.equal(await page.getAttribute(tile(4, 4), 'data-shown'), null, 'the colour hid when the pointer left');
      await page.waitForTimeout(1100);
      assert.notEqual(await page.textContent(testid('timer')), '0:00', 'the clock started with the peek');
      const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(mine, theirs);
      assert.deepEqual(page.errors, []);
    });
  });

  test('keyboard: the P key peeks the cursor cell, Enter selects, a refusal says why', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=hidden&preset=classic&seed=browser-hidden-keys`);
      await waitIdle(page);
      const board = page.locator(testid('board'));
      await board.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.getAttribute(testid('board-cursor'), 'data-x'), '1');
      assert.equal(await page.getAttribute(testid('board-cursor'), 'data-y'), '1');
      assert.ok(await page.isVisible(testid('board-cursor')), 'the cursor shows');
      assert.equal(await page.textContent(testid('announce')), 'Column 2, row 2: hidden');
      // Moving the cursor spent nothing.
      assert.equal((await gameView(page)).move_count, 0);
      await page.keyboard.press('p');
      await page.waitForFunction(() => window.__tilecrush.view.peeks === 1);
      await waitIdle(page);
      const color = Number(await page.getAttribute(tile(1, 1), 'data-shown'));
      assert.ok(color >= 1);
      assert.match(await page.textContent(testid('announce')), new RegExp(`^Peeked column 2, row 2: [a-z]+, colour ${color}\\.`));
      // P again on the shown cell costs nothing more; moving on hides it.
      await page.keyboard.press('p');
      await waitIdle(page);
      assert.equal((await gameView(page)).peeks, 1);
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((sel) => !document.querySelector(sel).dataset.shown, tile(1, 1));
      // Enter along the bottom row until a select is accepted; every refusal
      // on the way says why.
      const v = await gameView(page);
      for (let i = 0; i < v.height; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Home');
      let selected = null;
      for (let x = 0; x < v.width && !selected; x++) {
        if (x > 0) await page.keyboard.press('ArrowRight');
        const mc = (await gameView(page)).move_count;
        await page.keyboard.press('Enter');
        await waitIdle(page);
        const after = await gameView(page);
        if (after.move_count > mc) {
          selected = [x, v.height - 1];
          assert.equal(await page.textContent(testid('message')), '', 'an accepted move clears the refusal');
          assert.match(await page.textContent(testid('announce')), new RegExp(`^Selected column ${x + 1}, row ${v.height}: [a-z]+, colour \\d+\\.`));
        } else {
          assert.equal(await page.textContent(testid('message')), 'That tile cannot be selected.');
        }
      }
      assert.ok(selected, 'a tile of the bottom row can be selected');
      // P on a selected tile (its colour shows) peeks nothing, and says so.
      await page.keyboard.press('p');
      await waitIdle(page);
      assert.equal(await page.textContent(testid('announce')), 'Nothing to peek there: no hidden tile.');
      assert.equal((await gameView(page)).peeks, 1);
      const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(mine, theirs);
      // A tile away from the selection: refused, with the reason, announced.
      const far = selected[0] < v.width / 2 ? v.width - 1 : 0;
      await page.keyboard.press(far === 0 ? 'Home' : 'End');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      const mc = (await gameView(page)).move_count;
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
      assert.equal(await page.textContent(testid('message')), 'Select a tile next to the selection.');
      assert.equal(await page.textContent(testid('announce')), 'Select a tile next to the selection.');
      assert.equal((await gameView(page)).move_count, mc);
      // Giving up ends the game: the refusal goes, the end is announced.
      await giveUp(page);
      await page.waitForSelector(`${testid('gameover')}:not([hidden])`);
      await waitIdle(page);
      assert.equal(await page.textContent(testid('message')), '');
      assert.match(await page.textContent(testid('announce')), /Game over \(Given up\)\. Final score -?\d+\.$/);
      assert.equal(await page.isDisabled(testid('btn-peek')), true);
      assert.deepEqual(page.errors, []);
    });
  });

  test('touch: a tap selects and never peeks; in peek mode a tap peeks', async (t) => {
    const contextOptions = { hasTouch: true, isMobile: true };
    await withPage(t, env, { contextOptions, viewport: { width: 390, height: 844 } }, async (page) => {
      const v = await openGame(page, 'mode=hidden&preset=classic&seed=browser-hidden-touch');
      await page.locator(testid('board')).scrollIntoViewIfNeeded();
      const box = await page.locator(testid('board')).boundingBox();
      const at = (x, y) => ({ x: ((x + 0.5) * box.width) / v.width, y: ((y + 0.5) * box.height) / v.height });
      // Without peek mode a tap asks to select: accepted or refused, never a peek.
      await page.tap(testid('board'), { position: at(2, v.height - 1) });
      await page.waitForFunction(() => !window.__tilecrush.busy
        && (window.__tilecrush.view.move_count === 1 || document.querySelector('[data-testid="message"]').textContent !== ''));
      await waitIdle(page);
      assert.equal((await gameView(page)).peeks, 0, 'a tap peeks nothing');
      // Peek mode: a tap peeks, once.
      await page.tap(testid('btn-peek'));
      assert.equal(await page.getAttribute(testid('btn-peek'), 'aria-pressed'), 'true');
      const before = (await gameView(page)).move_count;
      await page.tap(testid('board'), { position: at(5, 5) });
      await page.waitForFunction(() => window.__tilecrush.view.peeks === 1);
      await waitIdle(page);
      assert.ok(Number(await page.getAttribute(tile(5, 5), 'data-shown')) >= 1, 'the peeked colour shows');
      assert.equal((await gameView(page)).move_count, before + 1);
      assert.equal(await page.textContent(testid('peeks')), '1');
      // Leaving peek mode: the next tap selects again.
      await page.tap(testid('btn-peek'));
      assert.equal(await page.getAttribute(testid('btn-peek'), 'aria-pressed'), 'false');
      await page.tap(testid('board'), { position: at(7, v.height - 1) });
      await page.waitForTimeout(300);
      await waitIdle(page);
      assert.equal((await gameView(page)).peeks, 1);
      const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(mine, theirs);
      assert.deepEqual(page.errors, []);
    });
  });
});
