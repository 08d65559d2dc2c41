// Keyboard play and what the live region says (issue 23), in Same Game and
// match-3 (hidden colours: hidden.test.mjs). The board takes focus with a
// visible ring, arrow keys move a visible cursor, Enter or Space plays the
// move the server accepts (the client's state_hash equals the server's), a
// refused move shows and announces its reason, the refusal clears on the
// next accepted move and at game over, and score changes and the end are
// announced. In Japanese, the reason is Japanese.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle, gameView, openGame, groupOf, giveUp } from '../lib/harness.mjs';
import { expectHashesEqual, swaps } from '../lib/moves.mjs';

// Presses arrow keys until the cursor is on (x, y).
async function cursorTo(page, x, y) {
  const at = async () => page.evaluate(() => {
    const c = document.querySelector('[data-testid="board-cursor"]');
    return [Number(c.dataset.x), Number(c.dataset.y)];
  });
  let [cx, cy] = await at();
  while (cx !== x) { await page.keyboard.press(cx < x ? 'ArrowRight' : 'ArrowLeft'); cx += cx < x ? 1 : -1; }
  while (cy !== y) { await page.keyboard.press(cy < y ? 'ArrowDown' : 'ArrowUp'); cy += cy < y ? 1 : -1; }
  assert.deepEqual(await at(), [x, y], 'the cursor is where the arrows took it');
}

browserSuite('Keyboard play', (env) => {
  test('Same Game: focus, arrows, a refused group of one says why, Enter and Space remove groups', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy&seed=browser-keys-same`);
      await waitIdle(page);
      const board = page.locator(testid('board'));
      assert.equal(await board.getAttribute('tabindex'), '0');
      assert.equal(await board.getAttribute('role'), 'application');
      assert.match(await board.getAttribute('aria-label'), /^Board, 10 columns by 10 rows/);
      // The first Tab shows the skip link, which goes past the navigation
      // to the board.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'skip-link');
      assert.ok(await page.locator(testid('skip-link')).isVisible(), 'the skip link shows when focused');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'board');
      await page.evaluate(() => document.activeElement.blur());
      // Reached by Tab too, like any control.
      let focused = false;
      for (let i = 0; i < 30 && !focused; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.testid === 'board');
      }
      assert.ok(focused, 'Tab reaches the board');
      await page.keyboard.press('ArrowRight');
      const ring = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="board"]')).outlineStyle);
      assert.equal(ring, 'solid', 'a visible focus ring');
      assert.ok(await page.isVisible(testid('board-cursor')), 'a visible cursor');
      assert.equal(await page.getAttribute(testid('board-cursor'), 'data-x'), '1');

      const v0 = await gameView(page);
      let single = null;
      let best = null;
      for (let y = 0; y < v0.height; y++) {
        for (let x = 0; x < v0.width; x++) {
          const n = groupOf(v0.board, x, y).length;
          if (n === 1 && !single) single = [x, y];
          if (!best || n > best.n) best = { x, y, n };
        }
      }
      assert.ok(single && best.n >= 2, 'the board has a group of one and a group of two or more');
      // The cursor previews like the mouse, and the cell is described.
      await cursorTo(page, single[0], single[1]);
      assert.match(await page.textContent(testid('announce')),
        new RegExp(`^Column ${single[0] + 1}, row ${single[1] + 1}: [a-z]+, colour ${v0.board[single[1]][single[0]]}$`));
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
      const reason = 'A single tile cannot be removed: it needs a neighbour of its colour.';
      assert.equal(await page.textContent(testid('message')), reason);
      assert.equal(await page.textContent(testid('announce')), reason);
      assert.equal((await gameView(page)).move_count, 0, 'nothing changed');

      await cursorTo(page, best.x, best.y);
      // The preview follows the cursor (previews of the cells on its way may
      // show first): wait for the group under it.
      const expected = `+${(best.n - 2) ** 2} for ${best.n} tiles`;
      await page.waitForFunction((text) => document.querySelector('[data-testid="preview-points"]').textContent === text,
        expected);
      assert.equal(await page.textContent(testid('preview-points')), expected);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      await expectHashesEqual(page);
      assert.equal(await page.textContent(testid('message')), '', 'the accepted move cleared the refusal');
      const points = (best.n - 2) ** 2;
      const said = await page.textContent(testid('announce'));
      assert.ok(said.startsWith(`${best.n} tiles removed.${points ? ` Score +${points}, now ${points}.` : ''}`), said);

      // Space plays too.
      const v1 = await gameView(page);
      let next = null;
      for (let y = 0; y < v1.height && !next; y++) {
        for (let x = 0; x < v1.width && !next; x++) {
          if (v1.board[y][x] > 0 && groupOf(v1.board, x, y).length >= 2) next = [x, y];
        }
      }
      await cursorTo(page, next[0], next[1]);
      await page.keyboard.press(' ');
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 2 || window.__tilecrush.view.over);
      await waitIdle(page);
      await expectHashesEqual(page);

      // A refusal, then the end of the game: the refusal does not linger.
      const v2 = await gameView(page);
      if (!v2.over) {
        let refusedAt = null;
        for (let y = 0; y < v2.height && !refusedAt; y++) {
          for (let x = 0; x < v2.width && !refusedAt; x++) {
            if (v2.board[y][x] === 0 || groupOf(v2.board, x, y).length === 1) refusedAt = [x, y];
          }
        }
        assert.ok(refusedAt, 'an empty cell or a group of one');
        await cursorTo(page, refusedAt[0], refusedAt[1]);
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
        assert.match(await page.textContent(testid('message')), /^(There is no tile there\.|A single tile cannot be removed)/);
        await giveUp(page);
        await page.waitForSelector(`${testid('gameover')}:not([hidden])`);
        await waitIdle(page);
        assert.equal(await page.textContent(testid('message')), '', 'no refusal after the game is over');
        const final = (await gameView(page)).score;
        assert.equal(await page.textContent(testid('announce')), `Game over (Given up). Final score ${final}.`);
        // Give up is disabled now: the focus went on to the panel's first
        // way on, not to the top of the page.
        assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'btn-again');
      }
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });

  test('Same Game: Hint replaces the cursor\'s preview and takes the cursor to the hinted group', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const v0 = await openGame(page, 'mode=same&preset=easy&seed=browser-keys-hint');
      const lit = (cls) => page.evaluate((c) => [...document.querySelectorAll(`[data-testid="cell"].${c}`)]
        .map((el) => `${el.dataset.x},${el.dataset.y}`).sort(), cls);
      const hinted = await page.evaluate(() =>
        window.__tilecrush.net.request('hint', { game_id: window.__tilecrush.view.game_id }));
      const hintGroup = groupOf(v0.board, hinted.click[0], hinted.click[1]).map(([x, y]) => `${x},${y}`).sort();
      // The cursor on another group of two or more: its preview is lit.
      let other = null;
      for (let y = 0; y < v0.height && !other; y++) {
        for (let x = 0; x < v0.width && !other; x++) {
          const g = groupOf(v0.board, x, y);
          if (g.length >= 2 && !hintGroup.includes(`${x},${y}`)) other = { x, y, n: g.length };
        }
      }
      assert.ok(other, 'the board has a group besides the hinted one');
      await page.locator(testid('board')).focus();
      await page.keyboard.press('ArrowRight'); // the cursor shows (and previews) once a key moves it
      await cursorTo(page, other.x, other.y);
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="cell"].preview').length === n, other.n);
      // Hint from the keyboard: one group lit, the hinted one, with the cursor on it.
      await page.locator(testid('btn-hint')).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="cell"].hint').length > 0);
      assert.deepEqual(await lit('hint'), hintGroup);
      assert.deepEqual(await lit('preview'), [], 'the preview gave way to the hint');
      assert.deepEqual(await page.evaluate(() => {
        const c = document.querySelector('[data-testid="board-cursor"]');
        return [Number(c.dataset.x), Number(c.dataset.y)];
      }), hinted.click);
      // Back on the board, Enter removes the hinted group.
      await page.locator(testid('board')).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      await expectHashesEqual(page);
      assert.equal((await gameView(page)).score, (hintGroup.length - 2) ** 2);
      assert.deepEqual(await lit('hint'), [], 'the move cleared the hint');
      assert.deepEqual(page.errors, []);
    });
  });

  test('match-3: Enter picks, Escape cancels, two presses swap; a swap without a run says why', async (t) => {
    await withPage(t, env, {}, async (page) => {
      const v0 = await openGame(page, 'mode=match3&preset=classic&seed=browser-keys-m3');
      const { valid, invalid } = swaps(v0.board, { vertical: false });
      assert.ok(valid.length > 0 && invalid.length > 0);
      await page.locator(testid('board')).focus();

      // Pick, then Escape: nothing picked, nothing sent.
      const [ia, ib] = invalid[0];
      await cursorTo(page, ia[0], ia[1]);
      await page.keyboard.press('Enter');
      assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('.tile.picked')]
        .map((el) => [Number(el.dataset.x), Number(el.dataset.y)])), [ia]);
      assert.equal(await page.textContent(testid('announce')),
        `Picked column ${ia[0] + 1}, row ${ia[1] + 1}: choose a neighbour to swap with.`);
      await page.keyboard.press('Escape');
      assert.equal(await page.locator('.tile.picked').count(), 0);
      assert.equal(await page.textContent(testid('announce')), 'Pick dropped.');

      // A swap that makes no run: refused, the reason shown and announced.
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
      await waitIdle(page);
      assert.equal(await page.textContent(testid('message')), 'That swap makes no line of three.');
      assert.equal(await page.textContent(testid('announce')), 'That swap makes no line of three.');
      assert.equal((await gameView(page)).move_count, 0);
      assert.deepEqual((await gameView(page)).board, v0.board, 'the refused swap changed nothing');

      // A valid swap by two presses.
      const [va, vb] = valid[0];
      await cursorTo(page, va[0], va[1]);
      await page.keyboard.press('Enter');
      await cursorTo(page, vb[0], vb[1]);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(page);
      await expectHashesEqual(page);
      assert.equal(await page.textContent(testid('message')), '', 'the accepted swap cleared the refusal');
      const v1 = await gameView(page);
      assert.match(await page.textContent(testid('announce')), new RegExp(`^\\d+ tiles removed\\. Score \\+${v1.score}, now ${v1.score}\\.$`));
      assert.equal(await page.evaluate(() => window.__tilecrush.hashMismatches), 0);
      assert.deepEqual(page.errors, []);
    });
  });

  test('Japanese: the refusal\'s reason in Japanese', async (t) => {
    await withPage(t, env, { lang: 'ja' }, async (page) => {
      const v0 = await openGame(page, 'mode=match3&preset=classic&seed=browser-keys-m3');
      const { invalid } = swaps(v0.board, { vertical: false });
      await page.locator(testid('board')).focus();
      const [a] = invalid[0];
      await cursorTo(page, a[0], a[1]);
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('[data-testid="message"]').textContent !== '');
      assert.equal(await page.textContent(testid('message')), 'その入れ替えでは3つ並びません。');
      assert.equal(await page.textContent(testid('howto-keys')).then((s) => s.startsWith('キー:')), true);
      assert.deepEqual(page.errors, []);
    });
  });
});
