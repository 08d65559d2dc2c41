// Cutting the WebSocket mid-game: the client reconnects, says hello again,
// resumes the game and ends up with the same state_hash; play goes on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, withPage, testid, waitIdle } from '../lib/harness.mjs';
import { clickSomeGroup, expectHashesEqual } from '../lib/moves.mjs';

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
      await expectHashesEqual(page);
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
