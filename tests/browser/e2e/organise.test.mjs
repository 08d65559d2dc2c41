// Organisers end to end: an organiser without any player name opens
// Organise from the navigation (no name dialog, no hello), enters the
// token, creates a competition and finds it under My competitions, opens
// its page (still no name asked); a player plays it and resigns; the
// organiser disqualifies the player from the row of the table: the
// confirmation names the player and says it cannot be undone, Cancel,
// Escape and a click outside change nothing, then (in Japanese) Disqualify stays disabled
// until a reason is given and the name typed exactly, and confirming
// marks the row disqualified, as the API says too.
// With ORG_SHOTS=DIR, screenshots of each screen at desktop and phone size
// go to DIR.
// The tokens come from `<server> --db <db> --add-organiser NAME`
// (lib/server.mjs); a server without that option skips the suite (fails
// with TILECRUSH_REQUIRE_SERVER=1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  browserSuite, openPage, testid, uniqueName, withPages, skipWithoutOrganisers, nameNeverAsked } from '../lib/harness.mjs';
import { playAttemptAndGiveUp } from '../lib/moves.mjs';

const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const SHOTS = process.env.ORG_SHOTS ? path.resolve(process.env.ORG_SHOTS) : null;

// Screenshots of the page as it is, at both sizes (only with ORG_SHOTS).
async function shots(page, name, { full = true } = {}) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SHOTS, `${name}_${size}.png`), fullPage: full });
  }
  await page.setViewportSize(before);
}

// A datetime-local value `ms` from now, in the page's time zone.
const localIn = (page, ms) => page.evaluate((off) => {
  const d = new Date(Date.now() + off);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}, ms);
const focused = (page) => page.evaluate(() => document.activeElement && document.activeElement.dataset.testid);
const HOUR = 3600 * 1000;

const compState = (page) => page.evaluate(() => window.__tilecrush.competition);
const rowOf = (page, player) => page.locator(`[data-testid="comp-result-row"][data-player="${player}"]`);
// no-store: a leaderboard page may be kept by the browser for a few seconds.
const fetchJson = (page, url) => page.evaluate(async (u) => (await fetch(u, { cache: 'no-store' })).json(), url);

browserSuite('Organise', (env) => {
  test('organise without a name, my competitions, disqualify from the row through the confirmation', async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    const token = env.server.organisers.orgA;
    // No player name kept: any hello would open the name dialog.
    const org = await openPage(env, { name: null, viewport: SIZES.desktop });
    const player = await openPage(env, { name: uniqueName('max'), lang: 'ja' });
    const pages = { org, player };
    const noDialog = nameNeverAsked(org);
    await withPages(pages, 'organise', async () => {
      // From the competitions list to Organise through the navigation.
      await org.goto(`${org.base}/?view=competitions`);
      await org.locator(testid('competitions-page')).waitFor();
      await noDialog('competitions');
      assert.ok(await org.locator(testid('net-status')).isHidden(), 'no connection to report');
      await org.click(testid('nav-organise'));
      await org.locator(testid('organise-page')).waitFor();
      assert.match(org.url(), /\?view=organise$/);
      await noDialog('organise');
      assert.equal(await org.textContent(testid('org-mine-status')), 'Enter your token to see your competitions.');

      // A wrong token is refused and not kept; the right one lists nothing yet.
      await org.fill(testid('org-token'), 'not-a-token');
      await org.click(testid('org-token-use'));
      await org.waitForFunction(() => /does not know this organiser token/.test(document.querySelector('[data-testid="org-token-message"]').textContent));
      assert.equal(await org.evaluate(() => localStorage.getItem('tilecrush.organiserToken')), null);
      await org.fill(testid('org-token'), token);
      await org.click(testid('org-token-use'));
      await org.waitForFunction(() => /orgA/.test(document.querySelector('[data-testid="org-token-message"]').textContent));
      assert.equal(await org.textContent(testid('org-mine-status')), 'No competitions yet: create one below.');
      assert.equal(await org.evaluate(() => localStorage.getItem('tilecrush.organiserToken')), token);
      assert.ok(!org.url().includes(token), 'the token is never in the address');

      // Create one: Same Game, open at once for ten minutes, unlisted.
      const name = `Row cup ${Date.now() % 100000}`;
      await org.fill(testid('org-name'), name);
      await org.selectOption(testid('org-mode'), 'same');
      await org.selectOption(testid('org-preset'), 'easy');
      // The window's limits are the form's own checks, in its words, before
      // anything is sent; the message has the focus.
      const posts = [];
      org.on('request', (r) => { if (r.method() === 'POST' && r.url().endsWith('/api/competitions')) posts.push(r.url()); });
      await org.fill(testid('org-opens'), await localIn(org, -2 * HOUR));
      await org.fill(testid('org-closes'), await localIn(org, HOUR));
      await org.click(testid('org-submit'));
      assert.equal(await org.textContent(testid('org-message')),
        'The opening has passed: choose a later time, or tick “at once”.');
      assert.equal(await focused(org), 'org-message');
      await org.fill(testid('org-opens'), await localIn(org, HOUR));
      await org.fill(testid('org-closes'), await localIn(org, 400 * 24 * HOUR));
      await org.click(testid('org-submit'));
      assert.equal(await org.textContent(testid('org-message')),
        'The closing must come at most 366 days after the opening.');
      assert.deepEqual(posts, [], 'nothing sent');
      // A refusal the form could not foresee (the server's clock is not the
      // browser's) in the same words; one it has no words for, in a
      // translated sentence. The focus goes to the message, not the page.
      const refuse = (message) => org.route('**/api/competitions', (route) => (route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'bad_request', message } }) })
        : route.continue()));
      await refuse('opens_at is in the past');
      await org.fill(testid('org-closes'), await localIn(org, 3 * HOUR));
      await org.click(testid('org-submit'));
      await org.waitForFunction(() => /^The opening has passed/.test(document.querySelector('[data-testid="org-message"]').textContent));
      assert.equal(await focused(org), 'org-message');
      await org.unrouteAll();
      await refuse('could not save the competition');
      await org.click(testid('org-submit'));
      await org.waitForFunction(() => /^The server refused/.test(document.querySelector('[data-testid="org-message"]').textContent));
      assert.equal(await focused(org), 'org-message');
      await org.unrouteAll();
      // "At once": the greyed Opens field shows now, and keeps showing it.
      await org.check(testid('org-open-now'));
      const opensShown = () => org.evaluate(() => {
        const input = document.querySelector('[data-testid="org-opens"]');
        return { disabled: input.disabled, off: new Date(input.value).getTime() - Date.now() };
      });
      let shown = await opensShown();
      assert.ok(shown.disabled && Math.abs(shown.off) < 2000, `Opens shows now (${shown.off} ms off)`);
      await org.waitForTimeout(2100);
      shown = await opensShown();
      assert.ok(Math.abs(shown.off) < 2000, `Opens still shows now (${shown.off} ms off)`);
      await org.fill(testid('org-closes'), await org.evaluate(() => {
        const d = new Date(Date.now() + 600 * 1000);
        const p = (n) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      }));
      await org.check(testid('org-unlisted'));
      await org.click(testid('org-submit'));
      await org.locator(testid('org-created-link')).waitFor();
      // The focus is on the link to send, not on the page.
      assert.equal(await focused(org), 'org-created-link');
      const id = new URL(await org.inputValue(testid('org-created-link'))).searchParams.get('id');
      assert.ok(id);
      assert.equal(await org.textContent(testid('org-created-name')), `Created “${name}”. Send this link to the players:`);
      // The form does not make the same competition twice: Create again asks for a name.
      assert.equal(await org.inputValue(testid('org-name')), '');
      await org.click(testid('org-submit'));
      assert.equal(await org.textContent(testid('org-message')),
        'The name needs 1 to 64 characters without control characters.');

      // It is under My competitions, first, open and unlisted, with its links.
      const item = org.locator(`[data-testid="org-mine-item"][data-id="${id}"]`);
      await item.waitFor();
      assert.equal(await org.getAttribute(`${testid('org-mine-list')} > li:first-child`, 'data-id'), id);
      assert.equal(await item.locator(testid('org-mine-link')).textContent(), name);
      // Opening "at once" is the next whole second: the list, read just
      // before, says upcoming, and reads itself again when it opens.
      await org.waitForFunction((cid) => {
        const li = document.querySelector(`[data-testid="org-mine-item"][data-id="${cid}"]`);
        return li && li.dataset.state === 'open';
      }, id, { timeout: 5000 });
      assert.equal(await item.locator(testid('org-mine-state')).textContent(), 'open');
      assert.equal(await item.locator(testid('org-mine-unlisted')).textContent(), 'unlisted');
      assert.equal(await item.locator(testid('org-mine-page')).getAttribute('href'), `/?view=competition&id=${id}`);
      assert.match(await item.locator(testid('org-mine-results')).getAttribute('href'), new RegExp(`/api/competitions/${id}/results$`));
      assert.match(await item.locator(testid('org-mine-csv')).getAttribute('href'), /format=csv/);
      assert.equal(await org.textContent(testid('org-mine-status')), '1 of 1, newest first.');
      await shots(org, 'organise');

      // Its page, read by its organiser: still no name asked, the organiser's view.
      await item.locator(testid('org-mine-link')).click();
      await org.waitForFunction(() => {
        const c = window.__tilecrush.competition;
        return c && c.state === 'open' && c.manager === true && c.results != null;
      });
      await noDialog('competition');
      assert.ok(await org.locator(testid('comp-manage-note')).isVisible());
      assert.doesNotMatch(await org.textContent('.comp-standings'), /null|undefined/);

      // A player (in Japanese) plays it and gives up.
      await player.goto(`${player.base}/?view=competition&id=${id}`);
      await player.waitForFunction(() => window.__tilecrush.competition && window.__tilecrush.competition.state === 'open');
      assert.equal(await player.locator(testid('comp-dq')).count(), 0, 'a player has no Disqualify button');
      // Giving up a running attempt asks first (rules.md, "Attempts").
      await playAttemptAndGiveUp(player, 2);
      const who = player.playerName;

      // The organiser's table shows the entry with its button.
      const row = rowOf(org, who);
      await row.waitFor({ timeout: 15000 });
      assert.equal(await row.getAttribute('data-disqualified'), 'false');
      assert.equal(await row.getAttribute('data-rank'), '1');
      const dq = row.locator(testid('comp-dq'));
      assert.equal(await dq.getAttribute('aria-label'), `Disqualify ${who}…`);
      // The moves stay secret from the organiser too until the close (the
      // server refuses the replay): no link yet, only when it comes.
      assert.equal(await row.locator('a', { hasText: 'Replay' }).count(), 0);
      assert.equal(await row.locator(testid('comp-replay-later')).textContent(), 'after the close');
      await shots(org, 'competition_organiser');
      // On a phone the organiser's table fits: that column, the same words
      // on every row, is left out there.
      await org.setViewportSize(SIZES.phone);
      await org.waitForFunction(() => {
        const wrap = document.querySelector('[data-testid="comp-results"]').parentElement;
        return wrap.scrollWidth <= wrap.clientWidth;
      }, null, { timeout: 5000 });
      assert.equal(await row.locator(testid('comp-replay-later')).isVisible(), false);
      await org.setViewportSize(SIZES.desktop);

      // The confirmation: names the player, says it cannot be undone.
      await dq.click();
      const dialog = org.locator(testid('dq-dialog'));
      await dialog.waitFor();
      assert.equal(await dialog.locator('h2').textContent(), `Disqualify ${who}?`);
      assert.equal(await dialog.locator(testid('dq-permanent')).textContent(), 'This cannot be undone.');
      assert.equal(await dialog.locator(testid('dq-name')).textContent(), who);
      assert.ok(await dialog.locator(testid('dq-confirm')).isDisabled(), 'nothing typed: no confirm');
      await org.fill(testid('dq-reason'), 'left by mistake');
      await org.fill(testid('dq-typed'), who);
      assert.ok(await dialog.locator(testid('dq-confirm')).isEnabled());
      await shots(org, 'dq_dialog', { full: false });
      // Cancel: nothing changes.
      await org.click(testid('dq-cancel'));
      await dialog.waitFor({ state: 'detached' });
      assert.ok(await dq.evaluate((b) => document.activeElement === b), 'focus back on the row button');
      // Escape: nothing changes either.
      await dq.click();
      await dialog.waitFor();
      assert.equal(await org.inputValue(testid('dq-reason')), '', 'a new dialog starts empty');
      await org.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // A click in the dialog's own padding keeps it; one on the backdrop closes it.
      await dq.click();
      await dialog.waitFor();
      const box = await dialog.boundingBox();
      await org.mouse.click(box.x + 4, box.y + 4);
      assert.ok(await dialog.isVisible(), 'a click inside the dialog keeps it');
      await org.mouse.click(5, box.y + box.height / 2);
      await dialog.waitFor({ state: 'detached' });
      await org.waitForTimeout(600);
      assert.equal(await row.getAttribute('data-disqualified'), 'false');
      const board = await fetchJson(org, `/api/competitions/${id}/leaderboard`);
      assert.equal(board.total, 1, 'still ranked after cancelling');
      const before = await fetchJson(org, `/api/competitions/${id}/results`);
      assert.deepEqual(before.entries.map((e) => [e.player, e.rank, e.flags]), [[who, 1, []]]);

      // In Japanese: confirm only with a reason and the exact name.
      await org.selectOption(testid('lang-select'), 'ja');
      await dq.click();
      await dialog.waitFor();
      assert.equal(await dialog.locator('h2').textContent(), `${who} さんを失格にしますか?`);
      assert.equal(await dialog.locator(testid('dq-permanent')).textContent(), 'この操作は取り消せません。');
      await org.fill(testid('dq-reason'), '二つのアカウントで参加');
      await org.fill(testid('dq-typed'), who.toUpperCase());
      assert.ok(await dialog.locator(testid('dq-confirm')).isDisabled(), 'the name exactly');
      await org.fill(testid('dq-typed'), who);
      await org.fill(testid('dq-reason'), '   ');
      assert.ok(await dialog.locator(testid('dq-confirm')).isDisabled(), 'a blank reason is none');
      await org.fill(testid('dq-reason'), '二つのアカウントで参加');
      assert.equal(await org.textContent(testid('dq-reason-count')), '11 / 200 文字');
      await shots(org, 'dq_dialog_ja', { full: false });
      await org.click(testid('dq-confirm'));
      await dialog.waitFor({ state: 'detached' });

      // The row shows it; so does the API.
      await org.waitForFunction((p) => {
        const r = document.querySelector(`[data-testid="comp-result-row"][data-player="${p}"]`);
        return r && r.dataset.disqualified === 'true';
      }, who);
      assert.equal(await row.getAttribute('data-rank'), '–');
      assert.equal(await row.locator(testid('comp-flag')).textContent(), '失格');
      assert.equal(await row.locator(testid('comp-dq-reason')).textContent(), '二つのアカウントで参加');
      assert.equal(await row.locator(testid('comp-dq')).count(), 0, 'no button on a disqualified row');
      assert.equal(await org.textContent(testid('comp-dq-done')), `${who} さんを失格にしました。`);
      const after = await fetchJson(org, `/api/competitions/${id}/results`);
      assert.deepEqual(after.entries.map((e) => [e.player, e.rank, e.flags, e.reason]),
        [[who, null, ['disqualified'], '二つのアカウントで参加']]);
      assert.equal((await fetchJson(org, `/api/competitions/${id}/leaderboard`)).total, 0);
      assert.doesNotMatch(await org.textContent('.comp-standings'), /null|undefined/);
      await shots(org, 'competition_after_dq');
      const state = await compState(org);
      assert.equal(state.manager, true);

      // Back on Organise (Japanese), the list says the same, with no name asked all along.
      await org.click(testid('nav-organise'));
      await org.locator(`[data-testid="org-mine-item"][data-id="${id}"]`).waitFor();
      assert.equal(await org.textContent(`[data-testid="org-mine-item"][data-id="${id}"] [data-testid="org-mine-state"]`), '開催中');
      await shots(org, 'organise_ja');
      await noDialog('the end');
      for (const [w, p] of Object.entries(pages)) assert.deepEqual(p.errors, [], `${w}: no script error`);
    });
  });

  test('another organiser\'s page: no Disqualify button, and their list is their own', async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    const page = await openPage(env, { name: null });
    try {
      await page.goto(`${page.base}/?view=organise`);
      const answer = await page.evaluate(async (tok) => {
        const now = Date.now();
        const res = await fetch('/api/competitions', { method: 'POST', headers: { Authorization: `Bearer ${tok}`,
          'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'A\'s own', mode: 'match3', preset: 'classic',
          opens_at: new Date(now + 3600e3).toISOString(), closes_at: new Date(now + 7200e3).toISOString() }) });
        return res.json();
      }, env.server.organisers.orgA);
      // orgB keeps its token here: orgA's competition is not in its list, and
      // its page offers orgB nothing to manage.
      await page.evaluate((tok) => localStorage.setItem('tilecrush.organiserToken', tok), env.server.organisers.orgB);
      await page.reload();
      await page.waitForFunction(() => /^No competitions yet/.test(document.querySelector('[data-testid="org-mine-status"]').textContent));
      assert.equal(await page.locator(`[data-testid="org-mine-item"][data-id="${answer.id}"]`).count(), 0);
      await page.goto(`${page.base}/?view=competition&id=${answer.id}`);
      await page.waitForFunction(() => window.__tilecrush.competition && window.__tilecrush.competition.manager === false);
      assert.equal(await page.locator(testid('comp-manage-note')).count(), 0);
      assert.equal(await page.locator(testid('name-dialog')).count(), 0, 'a token holder is not asked a name');
      assert.deepEqual(page.errors, []);
    } finally {
      await page.context().close();
    }
  });
}, { organisers: ['orgA', 'orgB'] });
