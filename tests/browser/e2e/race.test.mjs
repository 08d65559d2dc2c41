// Ghost races (web-client/js/pages/race.js): an entry played on a
// competition that then closes; its race plays the closed board as
// unranked practice beside the entry's replay at its recorded pace. The
// ghost plays back to the entry's final score and state_hash; the player,
// quick on the first move, is ahead, then (a move worth nothing, after the
// ghost's second move) no longer; the result names the winner.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, openPage, withPage, testid, waitIdle, gameView, playLargestGroups, groupOf, clickCell,
  uniqueName, screenshot, skipWithoutOrganisers } from '../lib/harness.mjs';

const CLOSE_AFTER_MS = 9000;
const FIRST_MOVE_AFTER_MS = 2500;  // the entry's pause before its first move
const race = (page) => page.evaluate(() => window.__tilecrush.race);

// Clicks a group of two (worth nothing) on the player's own board.
async function playSmallestGroup(page) {
  await waitIdle(page);
  const v = await gameView(page);
  let pick = null;
  for (let y = 0; y < v.height && !pick; y++) {
    for (let x = 0; x < v.width && !pick; x++) {
      if (v.board[y][x] > 0 && groupOf(v.board, x, y).length === 2) pick = { x, y };
    }
  }
  assert.ok(pick, 'the board has a group of two');
  await clickCell(page, pick.x, pick.y);
  await page.waitForFunction((mc) => window.__tilecrush.view.move_count > mc, v.move_count);
  await waitIdle(page);
}

browserSuite('Ghost race', (env) => {
  test("a race on a closed board: the ghost ends on the entry's score and state_hash, the lead changes", async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    const token = env.server.organisers.org1;
    await withPage(t, env, { name: uniqueName('ghost'), viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${page.base}/`);
      const comp = await page.evaluate(async ({ token, closeAfter }) => {
        const iso = (ms) => new Date(ms).toISOString();
        const r = await fetch('/api/competitions', {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Ghost cup', mode: 'same', preset: 'easy', opens_at: iso(Date.now() - 1000),
            closes_at: iso(Date.now() + closeAfter) }),
        });
        return r.json();
      }, { token, closeAfter: CLOSE_AFTER_MS });
      assert.ok(comp.id, JSON.stringify(comp));

      // The entry: a pause, two largest groups, then it gives up.
      await page.goto(`${page.base}/?mode=same&preset=easy&competition=${comp.id}`);
      await waitIdle(page);
      await page.waitForTimeout(FIRST_MOVE_AFTER_MS);
      await playLargestGroups(page, assert, 2);
      await page.click(testid('btn-resign'));
      await page.click(testid('confirm-ok'));
      await page.waitForFunction(() => window.__tilecrush.view.over);
      const entryView = await gameView(page);
      const entryHash = await page.evaluate(() => window.__tilecrush.lastStateHash);
      const entryId = entryView.game_id;

      // After the close, its results offer the race.
      await page.goto(`${page.base}/?view=competition&id=${comp.id}`);
      await page.locator(testid('comp-race')).first().waitFor({ timeout: 20000 });
      await screenshot(page, 'race-competition-desktop');
      const replay = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/replay`)).json(), entryId);
      const times = replay.steps.map((s) => s.t_ms);
      assert.ok(times[0] >= FIRST_MOVE_AFTER_MS, `the first move's offset ${times[0]} includes the pause`);
      assert.equal(times[2], times[1], "the give-up's step has its last move's offset");
      await page.click(testid('comp-race'));
      await page.locator(testid('race-page')).waitFor();
      await page.waitForFunction(() => window.__tilecrush.race && window.__tilecrush.race.started);
      const practice = await gameView(page);
      assert.equal(practice.ranked, false);
      assert.equal(practice.attempt, null);
      assert.equal(practice.competition, comp.id);
      assert.equal((await race(page)).paced, true);
      // No move yet: no empty record under its heading.
      assert.ok(await page.locator(testid('race-standing')).isHidden());

      // Quick first move: the same largest group, before the ghost's first.
      await playLargestGroups(page, assert, 1);
      let r = await race(page);
      assert.equal(r.record.length, 1);
      assert.ok(r.record[0].ms < times[0], `my move at ${r.record[0].ms} ms, the ghost's at ${times[0]}`);
      assert.deepEqual([r.record[0].ghost, r.record[0].lead], [0, 'ahead']);
      assert.ok(await page.locator(testid('race-standing')).isVisible());
      assert.equal(await page.getAttribute(testid('race-lead'), 'data-lead'), 'ahead');
      await screenshot(page, 'race-desktop');

      // The ghost plays to the entry's end: its score and state_hash.
      await page.waitForFunction(() => window.__tilecrush.race.ghostDone && !window.__tilecrush.race.ghostBusy,
        null, { timeout: 20000 });
      r = await race(page);
      assert.equal(r.ghostScore, entryView.score);
      assert.equal(r.ghostHash, entryHash);
      assert.equal(r.ghostHashOk, true);

      // A move worth nothing: level or behind, as the ghost's score says.
      await playSmallestGroup(page);
      r = await race(page);
      const mine = (await gameView(page)).score;
      assert.equal(r.record[1].ghost, entryView.score);
      assert.equal(r.record[1].lead, mine < entryView.score ? 'behind' : 'level');
      assert.equal(await page.locator(testid('race-record-move')).count(), 2);

      // Give up asks first in a race too, once there are moves.
      await page.click(testid('btn-resign'));
      await page.locator(testid('confirm-dialog')).waitFor();
      await page.click(testid('confirm-ok'));
      await page.locator(testid('race-verdict')).waitFor();
      const winner = await page.getAttribute(testid('race-result'), 'data-winner');
      assert.equal(winner, mine < entryView.score ? 'ghost' : 'tie');
      assert.equal(Number(await page.getAttribute(testid('race-result'), 'data-margin')), entryView.score - mine);
      await screenshot(page, 'race-desktop-result');

      // The entry's replay page offers the race too; a phone shows the ghost small.
      await page.goto(`${page.base}/?view=replay&game=${entryId}`);
      await page.locator(testid('race-entry')).waitFor();
      await screenshot(page, 'race-replay-page');
      const phone = await openPage(env, { name: uniqueName('ghostphone'), lang: 'ja', viewport: { width: 390, height: 844 } });
      try {
        await phone.goto(`${phone.base}/?view=competition&id=${comp.id}`);
        await phone.locator(testid('comp-race')).first().waitFor();
        await screenshot(phone, 'race-competition-phone-ja');
        await phone.click(testid('comp-race'));
        await phone.waitForFunction(() => window.__tilecrush.race && window.__tilecrush.race.started);
        await playLargestGroups(phone, assert, 1);
        await screenshot(phone, 'race-phone-ja');
        assert.deepEqual(phone.errors, []);
      } finally {
        await phone.context().close();
      }
      assert.deepEqual(page.errors, []);
    });
  });
}, { organisers: ['org1'] });
