// Moves the browser tests make on the game in a page, and the board logic
// that picks them (boards as the test hook gives them: rows, top first,
// 0 or less for an empty or hidden cell).

import assert from 'node:assert/strict';
import { testid, waitIdle, gameView, clickCell, groupOf, playLargestGroups } from './harness.mjs';

// Whether a match-3 board holds a run of three in a row or a column.
export function hasRun(b) {
  for (let y = 0; y < b.length; y++) {
    for (let x = 0; x < b[0].length; x++) {
      const c = b[y][x];
      if (c <= 0) continue;
      if (x + 2 < b[0].length && b[y][x + 1] === c && b[y][x + 2] === c) return true;
      if (y + 2 < b.length && b[y + 1][x] === c && b[y + 2][x] === c) return true;
    }
  }
  return false;
}

// Every swap [a, b] of two neighbouring filled cells in reading order (each
// cell with its right neighbour, then, unless `vertical` is false, with the
// one below), split by whether it makes a run.
export function swaps(board, { vertical = true } = {}) {
  const valid = [];
  const invalid = [];
  const b = board.map((r) => r.slice());
  const steps = vertical ? [[1, 0], [0, 1]] : [[1, 0]];
  for (let y = 0; y < b.length; y++) {
    for (let x = 0; x < b[0].length; x++) {
      for (const [dx, dy] of steps) {
        const nx = x + dx;
        const ny = y + dy;
        if (ny >= b.length || nx >= b[0].length || b[y][x] <= 0 || b[ny][nx] <= 0) continue;
        [b[y][x], b[ny][nx]] = [b[ny][nx], b[y][x]];
        (hasRun(b) ? valid : invalid).push([[x, y], [nx, ny]]);
        [b[y][x], b[ny][nx]] = [b[ny][nx], b[y][x]];
      }
    }
  }
  return { valid, invalid };
}

// The client's state_hash equals the last one the server sent.
export async function expectHashesEqual(page) {
  const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
  assert.ok(theirs, 'the server sent a state_hash');
  assert.equal(mine, theirs, 'client state_hash equals the server\'s');
}

// Same Game: clicks a group of two or more (the first from the bottom row
// up) and waits for its answer.
export async function clickSomeGroup(page) {
  const v = await gameView(page);
  for (let y = v.height - 1; y >= 0; y--) {
    for (let x = 0; x < v.width; x++) {
      if (v.board[y][x] > 0 && groupOf(v.board, x, y).length >= 2) {
        await clickCell(page, x, y);
        await page.waitForFunction((n) => window.__tilecrush.view.move_count > n, v.move_count);
        await waitIdle(page);
        return;
      }
    }
  }
  throw new Error('no group to click');
}

// On an open competition's page (Same Game): starts an attempt, plays the
// largest group `moves` times, gives the attempt up (the confirmation
// accepted: rules.md, "Attempts") and waits for the game-over panel.
export async function playAttemptAndGiveUp(page, moves) {
  await page.click(testid('comp-play'));
  await page.locator(testid('play-page')).waitFor();
  await playLargestGroups(page, assert, moves);
  await page.click(testid('btn-resign'));
  await page.click(testid('confirm-ok'));
  await page.locator(testid('gameover-reason')).waitFor();
  await waitIdle(page);
}
