// Seasons: yesterday's Same Game (easy) daily, with two finished entries,
// is written into the running server's database as a daily past its close
// that nobody has closed yet (a server that was down at midnight); the
// server's closing pass closes it and counts its points. The Seasons page
// then shows its month's standings, the signed-in player first with 100
// points and highlighted, the other with 50 (a field of 2), in English and
// Japanese, the rule and "around me". The home page's Yesterday card then
// shows the board, its winner and the player's own place (a new player:
// "did not play") without one request answered 404. Needs the sqlite3
// command (skipped without it).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { browserSuite, withPage, testid, uniqueName } from '../lib/harness.mjs';
import { serverPath } from '../lib/server.mjs';

const DAY = 86_400_000;
const hasSqlite = spawnSync('sqlite3', ['-version']).status === 0;
// The mock server (mock/server.mjs) has no seasons and no SQLite file.
const skip = (!hasSqlite && 'no sqlite3 command')
  || (String(serverPath() || '').endsWith('.mjs') && 'the mock server has no seasons');
const SHOTS = process.env.SEASON_SHOTS || null;

function sha256hex(text) {
  return crypto.createHash('sha256').update(text).digest('hex');
}

// A player's token: 32 hex digits, as the server gives them.
const tokenOf = (name) => sha256hex(`tok-${name}`).slice(0, 32);

// Yesterday's daily, past its close, with Sunny (500) and Rival (300).
function fillYesterday(db) {
  const today = Math.floor(Date.now() / DAY) * DAY;
  const opens = today - DAY;
  const date = new Date(opens).toISOString().slice(0, 10);
  const id = `daily-${date}-same-easy`;
  const key = '11'.repeat(32);
  const commitment = sha256hex(Buffer.from(key, 'hex'));
  const players = [[901, 'Sunny', 500], [902, 'Rival', 300]];
  const sql = [
    '.timeout 10000',
    'BEGIN IMMEDIATE;',
    `INSERT INTO competitions (id, name, mode, preset, seed, opens_at, closes_at, attempts, first_counts, unlisted, daily, organiser_id, created_at, closed)
     VALUES ('${id}', '${id}', 'same', 'easy', '${date}', ${opens}, ${today}, 1, 1, 0, 1, NULL, ${opens - DAY}, 0);`,
    `INSERT INTO boards (scope, mode, preset, seed, key, commitment, created_at, closes_at)
     VALUES ('${id}', 'same', 'easy', '${date}', X'${key}', '${commitment}', ${opens - DAY}, ${today});`,
  ];
  for (const [pid, name, score] of players) {
    const game = `g-season-${pid}`;
    sql.push(
      `INSERT INTO players (id, name, token_hash, created_at, games_played) VALUES (${pid}, '${name}', '${sha256hex(tokenOf(name))}', ${opens}, 1);`,
      `INSERT INTO games (id, player_id, mode, preset, width, height, colors, move_budget, refill, compress, seed, rules_version, ranked, score, move_count, state, over_reason, created_at, finished_at, duration_ms, keyed, competition_id, attempt)
       VALUES ('${game}', ${pid}, 'same', 'easy', 10, 10, 3, NULL, 0, 0, '${date}', 2, 1, ${score}, 0, 'over', 'resigned', ${opens + 1000}, ${opens + 60000}, 59000, 1, '${id}', 1);`,
      `INSERT INTO leaderboard (scope, mode, preset, seed, player_id, score, tiebreak, move_count, duration_ms, attempts, game_id, finished_at)
       VALUES ('${id}', 'same', 'easy', '${date}', ${pid}, ${score}, 0, 0, 59000, 1, '${game}', ${opens + 60000});`,
    );
  }
  sql.push(`INSERT INTO leaderboard_boards (scope, mode, preset, seed, entries, revision) VALUES ('${id}', 'same', 'easy', '${date}', 2, 2);`, 'COMMIT;');
  const r = spawnSync('sqlite3', [db], { input: sql.join('\n') });
  assert.equal(r.status, 0, r.stderr.toString());
  return { month: date.slice(0, 7) };
}

browserSuite('Seasons: a closed daily\'s points in the standings', (env) => {
  test('after the close the month shows the player with their points', { skip }, async (t) => {
    const { month } = fillYesterday(env.server.db);
    // The closing pass runs about once a second.
    const url = `${env.server.base}/api/seasons/${month}?mode=same`;
    let standings = null;
    for (let i = 0; i < 100; i += 1) {
      standings = await (await fetch(url)).json();
      if (standings.total > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(standings.entries.map((e) => [e.rank, e.player, e.points, e.boards]),
      [[1, 'Sunny', 100, 1], [2, 'Rival', 50, 1]]);

    for (const [lang, viewport] of [['en', { width: 1280, height: 900 }], ['ja', { width: 390, height: 844 }]]) {
      await withPage(t, env, { identity: { name: 'Sunny', token: tokenOf('Sunny') }, lang, viewport }, async (page) => {
        await page.goto(`${page.base}/`);
        await page.click(testid('nav-seasons'));
        await page.locator(testid('season-week')).waitFor();
        await page.goto(`${page.base}/?view=seasons&mode=same&period=${month}`);
        await page.locator(`${testid('season-row')}[data-player="Sunny"]`).waitFor();
        const rows = await page.$$eval('[data-testid="season-row"]', (trs) => trs.map((tr) => [
          tr.dataset.rank, tr.dataset.player, tr.querySelector('[data-testid="season-points"]').textContent, tr.className]));
        assert.deepEqual(rows, [['1', 'Sunny', '100', 'me'], ['2', 'Rival', '50', '']]);
        assert.equal(await page.textContent(testid('season-status')), lang === 'en' ? '2 players' : '2人');
        assert.equal(await page.textContent(testid('season-rule')), lang === 'en'
          ? 'Each closed daily gives points: 100 to the winner, the others their share of the field at or below them (rounded down, at least 1).'
          : '締め切ったデイリーごとにポイント: 1位は100、ほかは自分以下の順位の人数の割合（切り捨て、最低1）。');
        assert.match(await page.textContent(testid('season-left')),
          lang === 'en' ? /^(Ends in \d+ (d \d+ h|h \d+ min)|This period is over\.)$/ : /^(残り .+|この期間は終了しました。)$/);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/seasons-${lang}-${viewport.width}.png`, fullPage: true });
        await page.click(testid('season-around'));
        await page.locator(testid('season-top')).waitFor();
        assert.equal(await page.locator(testid('season-row')).count(), 2);
        assert.deepEqual(page.errors, []);
      });
    }

    // A period still to come (next year's January) has not begun: it is not 'over'.
    await withPage(t, env, {}, async (page) => {
      const future = `${new Date().getUTCFullYear() + 1}-01`;
      await page.goto(`${page.base}/?view=seasons&mode=same&period=${future}`);
      await page.waitForFunction(() => document.querySelector('[data-testid="season-left"]').textContent !== '');
      assert.equal(await page.textContent(testid('season-left')), 'This period has not begun yet.');
      assert.deepEqual(page.errors, []);
    });

    // Home's Yesterday card: the board with its winner and Sunny's own place,
    // from the archive and Sunny's history: no board asked about answers 404.
    await withPage(t, env, { identity: { name: 'Sunny', token: tokenOf('Sunny') } }, async (page) => {
      const missing = [];
      page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
      await page.goto(`${page.base}/`);
      const row = page.locator(`${testid('yesterday-board')}[data-preset="easy"]`);
      await row.waitFor();
      assert.equal(await row.locator(testid('yesterday-mine')).textContent(), 'You: #1 of 2, 500');
      assert.equal(await row.locator(testid('yesterday-winner')).textContent(), 'Winner: Sunny (500)');
      await page.waitForLoadState('networkidle');
      assert.deepEqual(missing, []);
      assert.deepEqual(page.errors, []);
    });
    await withPage(t, env, { name: uniqueName('new') }, async (page) => {
      await page.goto(`${page.base}/`);
      const row = page.locator(`${testid('yesterday-board')}[data-preset="easy"]`);
      await row.waitFor();
      assert.equal(await row.locator(testid('yesterday-mine')).textContent(), 'You did not play');
    });
  });
});
