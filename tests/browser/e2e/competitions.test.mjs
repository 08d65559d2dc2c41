// Competitions end to end: an organiser (browser in Tokyo time) creates an
// unlisted Same Game competition through the form, opening at once and
// closing about 14 seconds later; two players open its link, see the same
// commitment, and play it: Ann a few moves then gives up (her page then
// shows her on the live leaderboard, one attempt used), Bo (in Japanese)
// a few moves and leaves the game running, which the close ends (reason
// `closed`). After the close both competition pages show the same revealed
// key, say it matches the commitment, and show the same results table; the
// exports and the published moves are checked through the API.
// The organiser's token comes from `<server> --db <db> --add-organiser org1`
// (lib/server.mjs addOrganiser); a server without that option skips the
// suite (fails with TILECRUSH_REQUIRE_SERVER=1).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  browserSuite, openPage, withPage, testid, waitIdle, gameView, playLargestGroups, uniqueName, withPages, skipWithoutOrganisers } from '../lib/harness.mjs';

const CLOSE_AFTER_S = 14;
const compState = (page) => page.evaluate(() => window.__tilecrush.competition);

// The results table as the page shows it: rank, player, score per row.
const resultRows = (page) => page.$$eval('[data-testid="comp-result-row"]', (rows) => rows.map((r) => [
  r.dataset.rank, r.dataset.player, r.querySelector('[data-testid="comp-result-score"]').textContent,
  r.dataset.disqualified]));

browserSuite('Competitions', (env) => {
  test('organise, play with two players, close: same key, verified, same results', async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    const token = env.server.organisers.org1;
    assert.match(token, /\S/);
    const stamp = Date.now() % 100000;
    const org = await openPage(env, { name: uniqueName('org'), contextOptions: { timezoneId: 'Asia/Tokyo' } });
    const ann = await openPage(env, { name: uniqueName('ann') });
    const bo = await openPage(env, { name: uniqueName('bo'), lang: 'ja' });
    const pages = { org, ann, bo };
    await withPages(pages, 'competition', async () => {
      // The organiser: a wrong token first (the server's 401 message), then the right one.
      await org.goto(`${org.base}/?view=competitions`);
      await org.click(testid('link-organise'));
      await org.locator(testid('organise-form')).waitFor();
      await org.fill(testid('org-token'), 'not-a-token');
      await org.fill(testid('org-name'), `Cup ${stamp}`);
      await org.selectOption(testid('org-mode'), 'same');
      await org.selectOption(testid('org-preset'), 'easy');
      await org.check(testid('org-open-now'));
      const closeLocal = await org.evaluate((s) => {
        const d = new Date(Math.ceil(Date.now() / 1000) * 1000 + s * 1000);
        const p = (n) => String(n).padStart(2, '0');
        return { value: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`,
          iso: d.toISOString() };
      }, CLOSE_AFTER_S);
      await org.fill(testid('org-closes'), closeLocal.value);
      await org.fill(testid('org-attempts'), '3');
      await org.selectOption(testid('org-counts'), 'best');
      await org.check(testid('org-unlisted'));
      await org.click(testid('org-submit'));
      await org.waitForFunction(() => document.querySelector('[data-testid="org-message"]').textContent.length > 0);
      assert.ok(await org.locator(testid('org-created')).isHidden(), 'a wrong token creates nothing');

      await org.fill(testid('org-token'), token);
      await org.click(testid('org-submit'));
      await org.locator(testid('org-created-link')).waitFor();
      const href = await org.inputValue(testid('org-created-link'));
      const id = new URL(href).searchParams.get('id');
      assert.match(href, /\/\?view=competition&id=/);
      assert.ok(id, 'the link names the competition');
      assert.equal(await org.evaluate(() => localStorage.getItem('tilecrush.organiserToken')), token);

      const created = await org.evaluate(async (cid) => (await fetch(`/api/competitions/${cid}`)).json(), id);
      assert.equal(created.name, `Cup ${stamp}`);
      assert.equal(created.mode, 'same');
      assert.equal(created.preset, 'easy');
      assert.equal(created.attempts, 3);
      assert.equal(created.counts, 'best');
      assert.equal(created.unlisted, true);
      assert.equal(created.organiser, 'org1');
      assert.equal(created.key, null, 'no key before the close');
      assert.match(created.commitment, /^[0-9a-f]{64}$/);
      assert.ok(Math.abs(Date.parse(created.closes_at) - Date.parse(closeLocal.iso)) < 1500,
        `Tokyo local ${closeLocal.value} is sent as UTC ${closeLocal.iso} (server: ${created.closes_at})`);
      const listed = await org.evaluate(async () => (await fetch('/api/competitions?state=open')).json());
      assert.ok(!listed.competitions.some((c) => c.id === id), 'an unlisted competition is not listed');

      // Both players open the link and see it open, with the same commitment.
      const link = new URL(href);
      for (const p of [ann, bo]) await p.goto(`${p.base}${link.pathname}${link.search}`);
      for (const p of [ann, bo]) {
        await p.waitForFunction(() => {
          const c = window.__tilecrush.competition;
          return c && c.state === 'open' && c.attemptsLeft === 3;
        }, null, { timeout: 10000 });
        assert.equal(await p.textContent(testid('comp-commitment')), created.commitment);
        assert.equal(await p.textContent(testid('comp-name')), `Cup ${stamp}`);
        assert.ok(await p.locator(testid('comp-key-pending')).isVisible());
      }

      // Both play a few moves; Ann gives up, Bo leaves the game running.
      await Promise.all([ann, bo].map(async (p) => {
        await p.click(testid('comp-play'));
        await p.locator(testid('play-page')).waitFor();
        await p.waitForFunction((cid) => window.__tilecrush.view && window.__tilecrush.view.competition === cid, id);
        const v = await gameView(p);
        assert.equal(v.attempt, 1);
        assert.equal(v.commitment, created.commitment);
        assert.equal(v.ranked, true);
        assert.match(p.url(), new RegExp(`competition=${id}&game=${v.game_id}`));
        await playLargestGroups(p, assert, 3);
      }));
      await ann.click(testid('btn-resign'));
      // A running attempt is not given up without asking first.
      await ann.locator(testid('confirm-dialog')).waitFor();
      await ann.click(testid('confirm-ok'));
      await ann.locator(testid('gameover-reason')).waitFor();
      assert.equal(await ann.textContent(testid('gameover-reason')), 'Given up');
      const annFinal = (await gameView(ann)).score;
      const annGame = (await gameView(ann)).game_id;
      await ann.click(testid('over-competition'));
      await ann.waitForFunction((name) => {
        const c = window.__tilecrush.competition;
        return c && c.attemptsLeft === 2 && c.leaderboard && c.leaderboard.some((e) => e.player === name);
      }, ann.playerName, { timeout: 10000 });
      const live = (await compState(ann)).leaderboard.find((e) => e.player === ann.playerName);
      assert.equal(live.score, annFinal);
      // One entry so far (Bo's game still runs): one player, not "1 players".
      assert.equal(await ann.textContent(testid('comp-lb-foot')), '1 player · Full leaderboard');

      // The close ends Bo's game (reason closed, in Japanese).
      const boBefore = await gameView(bo);
      assert.equal(boBefore.over, false, 'Bo is still playing before the close');
      await bo.waitForFunction(() => window.__tilecrush.view && window.__tilecrush.view.over, null,
        { timeout: (CLOSE_AFTER_S + 20) * 1000 });
      await bo.locator(testid('gameover-reason')).waitFor();
      assert.equal(await bo.textContent(testid('gameover-reason')), '大会が終了しました');
      await waitIdle(bo);
      const boFinal = (await gameView(bo)).score;
      await bo.click(testid('over-competition'));

      // After the close: the same key on both pages, checked in the browser.
      const closed = () => {
        const c = window.__tilecrush.competition;
        return c && c.state === 'closed' && c.key && c.verify && c.verify !== 'checking' && c.results != null;
      };
      for (const p of [ann, bo]) await p.waitForFunction(closed, null, { timeout: 30000 });
      const [sa, sb] = [await compState(ann), await compState(bo)];
      assert.equal(sa.verify, 'verified');
      assert.equal(sb.verify, 'verified');
      assert.equal(await ann.getAttribute(testid('comp-verify'), 'data-result'), 'verified');
      assert.match(await ann.textContent(testid('comp-verify')), /Verified/);
      assert.match(await bo.textContent(testid('comp-verify')), /検証済み/);
      assert.match(sa.key, /^[0-9a-f]{64}$/i);
      assert.equal(sa.key, sb.key);
      assert.equal(await ann.textContent(testid('comp-key')), await bo.textContent(testid('comp-key')));
      assert.equal(crypto.createHash('sha256').update(Buffer.from(sa.key, 'hex')).digest('hex'), created.commitment.toLowerCase());

      // The same results table on both pages (they read them again for a
      // while after the close), Ann's score on it.
      const until = Date.now() + 15000;
      while ((await compState(ann)).results !== (await compState(bo)).results && Date.now() < until) {
        await ann.waitForTimeout(500);
      }
      const [ra, rb] = [await resultRows(ann), await resultRows(bo)];
      assert.deepEqual(ra, rb);
      assert.equal((await compState(ann)).results, (await compState(bo)).results);
      const annRow = ra.find((r) => r[1] === ann.playerName);
      assert.ok(annRow, 'Ann is in the results');
      assert.equal(annRow[2], String(annFinal));
      const boRow = ra.find((r) => r[1] === bo.playerName);
      if (boRow) assert.equal(boRow[2], String(boFinal), 'a game ended by the close keeps its score');

      // The exports, and the moves published now that the board is closed.
      const csvHref = await ann.getAttribute(testid('comp-download-csv'), 'href');
      const jsonHref = await ann.getAttribute(testid('comp-download-json'), 'href');
      const exported = await ann.evaluate(async ([j, c, g]) => ({
        json: await (await fetch(j)).json(), csv: await (await fetch(c)).text(), game: await (await fetch(`/api/games/${g}`)).json(),
      }), [jsonHref, csvHref, annGame]);
      assert.match(csvHref, /format=csv/);
      assert.ok(exported.csv.includes(ann.playerName), 'the CSV names Ann');
      assert.ok(exported.json.entries.some((e) => e.player === ann.playerName && Array.isArray(e.moves)));
      assert.ok(Array.isArray(exported.game.moves) && exported.game.moves.length === 3, 'Ann\'s moves are published');

      // Nothing left to play once closed.
      assert.ok(await ann.locator(testid('comp-play')).isHidden());
      for (const [who, p] of Object.entries(pages)) assert.deepEqual(p.errors, [], `${who}: no script error`);
    });
  });

  test('an upcoming competition: listed, its name shown as text, a countdown, play refused', async (t) => {
    if (skipWithoutOrganisers(t, env)) return;
    await withPage(t, env, {}, async (page) => {
      await page.goto(`${page.base}/`);
      const name = `<b>cup</b> ${Date.now() % 100000}`;
      const opens = new Date(Date.now() + 3600 * 1000);
      const closes = new Date(opens.getTime() + 3600 * 1000);
      const answer = await page.evaluate(async ([token, body]) => {
        const res = await fetch('/api/competitions', { method: 'POST', body: JSON.stringify(body),
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
        return { status: res.status, body: await res.json() };
      }, [env.server.organisers.org1, { name, mode: 'hidden', preset: 'classic', opens_at: opens.toISOString(),
        closes_at: closes.toISOString(), attempts: null, counts: 'first', unlisted: false }]);
      assert.equal(answer.status, 201);
      const { id } = answer.body;
      assert.equal(answer.body.state, 'upcoming');

      await page.click(testid('nav-competitions'));
      const item = page.locator(`[data-testid="comps-upcoming"] [data-testid="comp-item"][data-id="${id}"]`);
      await item.waitFor();
      assert.equal(await item.locator(testid('comp-link')).textContent(), name);
      assert.equal(await page.locator('[data-testid="competitions-page"] b').count(), 0, 'no markup from a name');
      assert.match(await item.textContent(), /Unlimited attempts; the first finished one counts/);

      await item.locator(testid('comp-link')).click();
      await page.waitForFunction(() => window.__tilecrush.competition && window.__tilecrush.competition.state === 'upcoming');
      assert.equal(await page.textContent(testid('comp-name')), name);
      assert.match(await page.textContent(testid('comp-state')), /^Opens in (59:\d\d|1:00:00)$/);
      assert.ok(await page.locator(testid('comp-play')).isDisabled());
      await page.selectOption(testid('lang-select'), 'ja');
      assert.match(await page.textContent(testid('comp-state')), /^開始まで/);
      assert.match(await page.textContent(testid('comp-rule')), /無制限/);

      // Started by its address before the opening (a link shared early):
      // refused, and the competition's own page says when it opens, in
      // place of an empty board.
      await page.goto(`${page.base}/?mode=hidden&preset=classic&competition=${id}`);
      await page.waitForURL((u) => u.searchParams.get('view') === 'competition');
      assert.equal(new URL(page.url()).searchParams.get('id'), id);
      await page.locator(testid('comp-state')).waitFor();
      assert.match(await page.textContent(testid('comp-state')), /^開始まで/);
      assert.ok(await page.locator(testid('comp-play')).isDisabled());
      assert.equal(await page.locator(testid('board')).count(), 0);

      // No competition with that id: said in a heading of its own, a way to
      // the list, no empty card under it.
      await page.goto(`${page.base}/?view=competition&id=nonexistent`);
      await page.locator(testid('comp-error')).waitFor();
      assert.equal(await page.textContent(testid('comp-error-title')), '大会が見つかりません');
      await page.selectOption(testid('lang-select'), 'en');
      assert.equal(await page.textContent(testid('comp-error-title')), 'No such competition');
      assert.match(await page.textContent(testid('comp-error')), /^No competition has this code/);
      assert.equal(await page.locator('[data-testid="competition-page"] .card:visible').count(), 1);
      await page.click(testid('comp-error-list'));
      await page.locator(testid('competitions-page')).waitFor();
      // Its leaderboard's address says the same, with the same way on.
      await page.goto(`${page.base}/?view=leaderboard&competition=nonexistent`);
      await page.waitForFunction(() => document.querySelector('[data-testid="lb-heading"]').textContent === 'No such competition');
      assert.match(await page.textContent(testid('lb-status')), /^No competition has this code/);
      assert.equal(await page.locator(testid('lb-competition')).count(), 0);
      await page.click(testid('lb-competitions'));
      await page.locator(testid('competitions-page')).waitFor();
      assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    });
  });
}, { organisers: ['org1'] });
