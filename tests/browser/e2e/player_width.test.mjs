// A player's page fits the screen (pages/player.js, style.css): with a
// long name at 320, 390 and 1280 px, nothing scrolls sideways, the heading
// wraps inside its card and the best scores' Replay link is on screen; the
// "No such player" page of a long unknown name wraps it too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, openPage, withPage, testid, openGame, playLargestGroups, giveUp } from '../lib/harness.mjs';

const WIDTHS = [320, 390, 1280];

// The page's sideways overflow, and how far the heading and (when there)
// the Replay link reach past the card.
const fit = (page) => page.evaluate(() => {
  const card = document.querySelector('[data-testid="player-page"]').getBoundingClientRect();
  const h2 = document.querySelector('[data-testid="player-name"]').getBoundingClientRect();
  const replay = document.querySelector('[data-testid="player-best"] td:last-child a');
  return { wide: document.documentElement.scrollWidth - innerWidth, heading: h2.right - card.right,
    replay: replay ? replay.getBoundingClientRect().right - card.right : null, cardRight: card.right - innerWidth };
});

browserSuite('A player page fits the screen', (env) => {
  test('a long name, its best scores and an unknown long name at 320, 390 and 1280 px', async (t) => {
    const name = 'Ola_with_a_long_name_123456';
    const player = await openPage(env, { name });
    try {
      await openGame(player, 'mode=same&preset=easy&seed=browser-width-seed');
      await playLargestGroups(player, assert, 1);
      await giveUp(player);
      await player.locator(testid('btn-again')).waitFor();
    } finally {
      await player.context().close();
    }
    for (const width of WIDTHS) {
      await withPage(t, env, { name: null, viewport: { width, height: 800 } }, async (page) => {
        await page.goto(`${page.base}/?view=player&name=${name}`);
        await page.locator(testid('player-best')).waitFor();
        const known = await fit(page);
        assert.equal(known.wide, 0, `${width} px: the page does not scroll sideways`);
        assert.ok(known.heading <= 0.5, `${width} px: the heading ends ${known.heading} px past its card`);
        assert.ok(known.replay != null && known.replay <= 0.5, `${width} px: Replay ends ${known.replay} px past the card`);
        assert.ok(known.cardRight <= 0, `${width} px: the card is on screen`);

        await page.goto(`${page.base}/?view=player&name=Nobody_with_an_extremely_long_unknown_name_xx`);
        await page.waitForFunction(() => /No such player/.test(document.querySelector('[data-testid="player-page"]').textContent));
        const unknown = await fit(page);
        assert.equal(unknown.wide, 0, `${width} px: "No such player" does not scroll sideways`);
        assert.ok(unknown.heading <= 0.5, `${width} px: the unknown name ends ${unknown.heading} px past its card`);
        assert.deepEqual(page.errors, []);
      });
    }
  });
});
