// The Archive: closed boards listed by day and read page by page ("Older
// boards" follows the `next` cursor); a board's page shows its key checked
// against the commitment in the browser; "Practice this board" starts an
// unranked game on exactly that board (the same commitment), with no
// confirmation to leave it. Screenshots at 1280x900 and 390x844 go to
// tests/browser/screenshots/ (TILECRUSH_SCREENSHOTS=1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { browserSuite, withPage, testid, SCREENSHOTS } from '../lib/harness.mjs';
import { playAttemptAndGiveUp } from '../lib/moves.mjs';

const BOARDS = 23;  // more than one page of 20

async function shot(page, name) {
  if (!process.env.TILECRUSH_SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

browserSuite('Archive', (env) => {
  test('pages through closed boards, verifies a key, practises on a board', async (t) => {
    await withPage(t, env, { viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.goto(`${page.base}/?view=archive`);
      await page.waitForSelector(testid('archive-page'));
      // Competitions closing in a few seconds, made through the API; the
      // last one (Same Game) a little later, for one entry.
      const ids = await page.evaluate(async ([token, n]) => {
        const out = [];
        const now = Date.now();
        for (let i = 0; i < n; i += 1) {
          const last = i === n - 1;
          const res = await fetch('/api/competitions', { method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
            body: JSON.stringify({ name: last ? 'Archive final' : `Archive cup ${i}`, mode: last || i % 2 ? 'same' : 'match3',
              preset: 'classic', opens_at: new Date(now).toISOString(),
              closes_at: new Date(now + (last ? 12000 : 4000)).toISOString() }) });
          out.push((await res.json()).id);
        }
        return out;
      }, [env.server.organisers.org1, BOARDS]);
      assert.equal(ids.filter(Boolean).length, BOARDS);
      const final = ids[BOARDS - 1];
      // One entry on the last: two moves, then giving up.
      await page.goto(`${page.base}/?view=competition&id=${final}`);
      await page.waitForFunction(() => window.__tilecrush.competition && window.__tilecrush.competition.state === 'open');
      await playAttemptAndGiveUp(page, 2);
      const finalScore = Number(await page.textContent(testid('final-score')));
      // Closed once their close has passed and the server's closing pass ran.
      const closedCount = () => page.evaluate(async () =>
        (await (await fetch('/api/archive?limit=100', { cache: 'no-store' })).json()).competitions.length);
      for (const until = Date.now() + 20000; (await closedCount()) < BOARDS && Date.now() < until;) {
        await page.waitForTimeout(300);
      }

      await page.goto(`${page.base}/?view=archive`);
      await page.waitForSelector(testid('archive-row'));
      assert.equal(await page.locator(testid('archive-row')).count(), 20);
      assert.equal(await page.locator(testid('archive-day')).count(), 1, 'all closed today');
      await page.click(testid('archive-more'));
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="archive-row"]').length === n, BOARDS);
      assert.equal(await page.locator(testid('archive-more')).isHidden(), true, 'the last page');
      const shown = await page.$$eval('[data-testid="archive-row"]', (rows) => rows.map((r) => r.dataset.id));
      assert.equal(new Set(shown).size, BOARDS);
      assert.deepEqual([...shown].sort(), [...ids].sort());
      assert.equal(await page.locator(testid('archive-day')).count(), 1, 'the next page goes on under the same day');
      // The latest close first: the board with its winner and field.
      const top = page.locator(testid('archive-row')).first();
      assert.equal(await top.getAttribute('data-id'), final);
      assert.equal(await top.locator(testid('archive-winner')).textContent(), `Winner: ${page.playerName} (${finalScore})`);
      assert.equal(await top.locator(testid('archive-entries')).textContent(), '1 entry');
      assert.equal(await page.locator(testid('archive-entries')).nth(1).textContent(), 'No entries');
      // The mode filter.
      await page.selectOption(testid('archive-mode'), 'same');
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="archive-row"]').length === n,
        Math.floor((BOARDS - 1) / 2) + 1);
      assert.match(page.url(), /mode=same/);
      await shot(page, 'archive-1280');

      // A board's page: the key, verified in the browser.
      const row = page.locator(testid('archive-row')).first();
      const id = await row.getAttribute('data-id');
      await row.locator(testid('archive-link')).click();
      await page.waitForFunction(() => {
        const c = window.__tilecrush.competition;
        return c && c.verify && c.verify !== 'checking' && c.results != null;
      });
      const comp = await page.evaluate(() => window.__tilecrush.competition);
      assert.equal(comp.id, id);
      assert.equal(comp.verify, 'verified');
      assert.equal(await page.getAttribute(testid('comp-verify'), 'data-result'), 'verified');
      assert.equal(await page.textContent(testid('comp-key')), comp.key);
      assert.equal(await page.locator(testid('comp-archive-link')).count(), 1);
      // The entry's own verification, by the server, read in words on its
      // replay page.
      await shot(page, 'archive-board-1280');
      const href = await page.getAttribute(testid('comp-verify-link'), 'href');
      assert.match(href, /^\/\?view=replay&game=[^&]+&verify=1$/);
      const checked = await page.evaluate(async (game) => (await fetch(`/api/games/${game}/verify`)).json(),
        new URL(href, page.base).searchParams.get('game'));
      assert.equal(checked.valid, true);
      assert.equal(checked.score, finalScore);
      await page.click(testid('comp-verify-link'));
      await page.locator(testid('replay-verdict')).waitFor();
      assert.equal(await page.textContent(testid('replay-verdict')), `Verified: the moves give ${finalScore}.`);
      await page.goBack();
      await page.locator(testid('comp-practice')).waitFor();

      // Practice: an unranked game on that very board.
      await page.click(testid('comp-practice'));
      await page.waitForFunction(() => window.__tilecrush.view && !window.__tilecrush.busy, null, { timeout: 15000 });
      const view = await page.evaluate(() => window.__tilecrush.view);
      assert.equal(view.competition, id);
      assert.equal(view.ranked, false);
      assert.equal(view.attempt, null);
      assert.equal(view.commitment, comp.commitment);
      await page.waitForSelector('[data-testid="play-competition"][data-practice="closed"]');
      assert.match(await page.textContent(testid('play-competition')), /Practice on a closed board/);
      assert.match(await page.textContent(testid('seed')), /Practice/);
      await shot(page, 'archive-practice-1280');
      // No confirmation to leave practice.
      await page.click(testid('nav-archive'));
      await page.waitForSelector(testid('archive-page'));
      assert.deepEqual(page.errors, []);
    });
  });

  test('phone layout, in Japanese', async (t) => {
    await withPage(t, env, { viewport: { width: 390, height: 844 }, lang: 'ja' }, async (page) => {
      await page.goto(`${page.base}/?view=archive`);
      await page.waitForSelector(testid('archive-row'));
      assert.equal(await page.textContent(testid('archive-more')), 'さらに古い盤面');
      assert.match(await page.locator(testid('archive-practice')).first().textContent(), /この盤面で練習/);
      await shot(page, 'archive-390');
      await page.locator(testid('archive-link')).first().click();
      await page.waitForFunction(() => {
        const c = window.__tilecrush.competition;
        return c && c.verify === 'verified';
      });
      await shot(page, 'archive-board-390');
      assert.deepEqual(page.errors, []);
    });
  });
}, { organisers: ['org1'] });
