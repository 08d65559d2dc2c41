// Cutting the WebSocket mid-game: the client reconnects, says hello again,
// resumes the game and ends up with the same state_hash; play goes on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle, gameView, clickCell, groupOf } from '../lib/harness.mjs';

async function clickSomeGroup(page) {
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

browserSuite('Reconnect', (env) => {
  test('a dropped connection resumes the game with the same state_hash', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=hard&seed=browser-reconnect`);
      await waitIdle(page);
      await clickSomeGroup(page);
      const before = await page.evaluate(() => ({ hash: window.__tilecrush.lastStateHash, id: window.__tilecrush.view.game_id,
        resyncs: window.__tilecrush.resyncs }));
      await page.evaluate(() => window.__tilecrush.dropConnection());
      await page.waitForFunction(() => document.querySelector('[data-testid="net-status"]').dataset.status !== 'online');
      await page.waitForFunction((n) => window.__tilecrush.resyncs > n
        && document.querySelector('[data-testid="net-status"]').dataset.status === 'online', before.resyncs, { timeout: 20000 });
      await waitIdle(page);
      const after = await page.evaluate(() => ({ hash: window.__tilecrush.lastStateHash, computed: window.__tilecrush.computedHash,
        id: window.__tilecrush.view.game_id }));
      assert.equal(after.id, before.id, 'the same game');
      assert.equal(after.hash, before.hash, 'the server\'s hash is unchanged');
      assert.equal(after.computed, before.hash, 'the client\'s board hashes the same');
      await clickSomeGroup(page);
      const hashes = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
      assert.equal(hashes[0], hashes[1]);
      assert.equal(await page.textContent(testid('moves')), '2');
      assert.deepEqual(page.errors, []);
    });
  });

  test('a reload of the game address resumes the running game', async (t) => {
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/?mode=same&preset=easy`);
      await waitIdle(page);
      await page.waitForURL(/seed=/);
      await clickSomeGroup(page);
      const before = await page.evaluate(() => [window.__tilecrush.view.game_id, window.__tilecrush.lastStateHash]);
      await page.reload();
      await waitIdle(page);
      const after = await page.evaluate(() => [window.__tilecrush.view.game_id, window.__tilecrush.lastStateHash]);
      assert.deepEqual(after, before);
    });
  });
});
