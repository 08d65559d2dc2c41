// Multiplayer rooms in the browser against a real server: page A creates a
// room, page B joins it through the share link, a third page watches it.
// Both players move; each sees the other's score live, the spectator's
// boards equal the players' own boards (cells and state_hash), a reload
// gives a player the room and game back, and the standings appear when
// both players have given up. Also: refusals shown to the user, and
// dropped connections of a spectator and of a player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, openPage, testid, waitIdle, gameView, clickCell, groupOf, uniqueName, withPages, giveUp,
} from '../lib/harness.mjs';
import { serverPath } from '../lib/server.mjs';

// The stand-in server (mock/server.mjs) has no rooms.
const suite = serverPath().endsWith('.mjs')
  ? (title) => test(title, { skip: 'the mock server has no rooms' }, () => {})
  : browserSuite;

const roomState = (page) => page.evaluate(() => window.__tilecrush.room);

async function waitRoom(page, state, role) {
  await page.waitForFunction(([s, r]) => {
    const room = window.__tilecrush.room;
    return room && room.joined && room.state === s && (!r || room.role === r);
  }, [state, role], { timeout: 15000 });
}

// Clicks a group of two or more: the biggest, or with `small` the smallest,
// so that the two players' boards part ways.
async function playOne(page, { small = false } = {}) {
  await waitIdle(page);
  const v = await gameView(page);
  let pick = null;
  for (let y = 0; y < v.height; y++) {
    for (let x = 0; x < v.width; x++) {
      if (v.board[y][x] <= 0) continue;
      const n = groupOf(v.board, x, y).length;
      if (n >= 2 && (!pick || (small ? n < pick.n : n > pick.n))) pick = { x, y, n };
    }
  }
  assert.ok(pick, 'a group to click');
  await page.locator(testid('board')).scrollIntoViewIfNeeded();
  await clickCell(page, pick.x, pick.y);
  await page.waitForFunction((mc) => window.__tilecrush.view.move_count > mc, v.move_count);
  await waitIdle(page);
  const [mine, theirs] = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
  assert.equal(mine, theirs);
  return gameView(page);
}

// The score a page shows for one player in its players table.
function shownScore(page, name) {
  return page.evaluate((n) => {
    const row = [...document.querySelectorAll('[data-testid="room-player"]')].find((r) => r.dataset.name === n);
    return row ? row.querySelector('[data-testid="room-player-score"]').textContent : null;
  }, name);
}

async function waitShownScore(page, name, score) {
  await page.waitForFunction(([n, s]) => {
    const row = [...document.querySelectorAll('[data-testid="room-player"]')].find((r) => r.dataset.name === n);
    const cell = row && row.querySelector('[data-testid="room-player-score"]');
    return cell && cell.textContent === String(s);
  }, [name, score], { timeout: 10000 });
}

// The spectator's copy of `name`'s board once it holds `moveCount` moves
// and every animation has finished.
async function watchedBoard(page, name, moveCount) {
  await page.waitForFunction(([n, mc]) => {
    const r = window.__tilecrush.room;
    return r && r.boards && r.boards[n] && r.boards[n].move_count === mc;
  }, [name, moveCount], { timeout: 10000 });
  await page.evaluate(() => window.__tilecrush.roomIdle());
  const snap = (await roomState(page)).boards[name];
  const tiles = await page.locator(`[data-testid="watch-card"][data-player="${name}"] [data-testid="cell"]`).count();
  return { ...snap, tiles };
}

async function expectSameBoard(spectator, playerPage, name) {
  const v = await gameView(playerPage);
  const hash = await playerPage.evaluate(() => window.__tilecrush.lastStateHash);
  const seen = await watchedBoard(spectator, name, v.move_count);
  assert.deepEqual(seen.board, v.board, `${name}'s board as the spectator sees it`);
  assert.equal(seen.hash, hash, `${name}'s state_hash`);
  assert.equal(seen.serverHash, hash);
  assert.equal(seen.score, v.score);
  assert.equal(seen.tiles, v.board.flat().filter((c) => c !== 0).length, 'one tile drawn per filled cell');
}

suite('Rooms', (env) => {
  test('two players race, a spectator follows both boards, standings at the end', async (t) => {
    const names = { a: uniqueName('ann'), b: uniqueName('bob'), s: uniqueName('sam') };
    const pages = {};
    await withPages(pages, 'rooms_race', async () => {
      await Promise.all(Object.entries(names).map(async ([k, name]) => {
        pages[k] = await openPage(env, { name, anim: 0.05 });
      }));
      const { a, b, s } = pages;
      const seed = `browser-room-${Date.now() % 100000}`;

      await a.goto(`${a.base}/?view=rooms`);
      await a.selectOption(testid('room-mode'), 'same');
      await a.selectOption(testid('room-preset'), 'easy');
      await a.fill(testid('room-seed'), seed);
      await a.click(testid('btn-create-room'));
      await waitRoom(a, 'lobby', 'player');
      const code = (await roomState(a)).code;
      assert.match(code, /^[A-Z0-9]{6}$/);
      assert.equal(await a.textContent(testid('room-code')), code);
      assert.match(a.url(), new RegExp(`room=${code}`));
      const shareLink = await a.inputValue(testid('room-share-link'));
      const watchLink = await a.inputValue(testid('room-watch-link'));
      assert.equal(shareLink, `${a.base}/?view=rooms&room=${code}`);

      await b.goto(shareLink);
      await waitRoom(b, 'lobby', 'player');
      assert.equal(await b.locator(testid('btn-start-room')).count(), 0, 'only the host can start');
      await b.locator(testid('room-wait-host')).waitFor();
      await a.waitForFunction(() => document.querySelectorAll('[data-testid="room-player"]').length === 2);
      const host = await a.locator(`[data-testid="room-player"][data-name="${names.a}"]`).getAttribute('data-host');
      assert.equal(host, 'true');

      await s.goto(watchLink);
      await waitRoom(s, 'lobby', 'spectator');
      // A new browser on the watch link is asked for a name, and told why.
      const visitor = await openPage(env, { name: null });
      try {
        await visitor.goto(watchLink);
        await visitor.locator(testid('name-dialog')).waitFor();
        assert.match(await visitor.textContent(testid('name-watch-note')), /Watching a room needs a name too/);
      } finally {
        await visitor.context().close();
      }
      await a.waitForFunction(() => document.querySelector('[data-testid="room-spectators"]').dataset.count === '1');

      await a.click(testid('btn-start-room'));
      await Promise.all([waitRoom(a, 'playing'), waitRoom(b, 'playing'), waitRoom(s, 'playing')]);
      await Promise.all([waitIdle(a), waitIdle(b)]);
      const [va, vb] = [await gameView(a), await gameView(b)];
      // A player meets the mode's rules in the race as on the play page.
      assert.match(await a.textContent(`${testid('room-race')} ${testid('howto-rules')}`), /\S/);
      assert.notEqual(va.game_id, vb.game_id, 'a game each');
      assert.deepEqual(va.board, vb.board, 'on the same board');
      assert.equal(va.seed, seed);
      await s.waitForFunction(() => document.querySelectorAll('[data-testid="watch-card"]').length === 2);

      // Both move; each sees the other's score, the spectator both boards.
      const a1 = await playOne(a);
      const b1 = await playOne(b, { small: true });
      const a2 = await playOne(a);
      await waitShownScore(b, names.a, a2.score);
      await waitShownScore(a, names.b, b1.score);
      await waitShownScore(s, names.a, a2.score);
      assert.ok(a2.score > 0 && a1.score <= a2.score);
      await expectSameBoard(s, a, names.a);
      await expectSameBoard(s, b, names.b);

      // B reloads: the same identity gets the room and the game back.
      const before = { id: vb.game_id, hash: await b.evaluate(() => window.__tilecrush.lastStateHash) };
      await b.reload();
      await waitRoom(b, 'playing', 'player');
      await waitIdle(b);
      const back = await b.evaluate(() => [window.__tilecrush.view.game_id, window.__tilecrush.lastStateHash]);
      assert.deepEqual(back, [before.id, before.hash]);
      assert.equal(await shownScore(b, names.a), String(a2.score));
      const b2 = await playOne(b, { small: true });
      await waitShownScore(a, names.b, b2.score);
      await expectSameBoard(s, b, names.b);

      // Both give up: everyone gets the standings.
      await giveUp(a);
      await a.waitForFunction(() => window.__tilecrush.view.over);
      await a.locator(testid('room-waiting')).waitFor();
      await giveUp(b);
      await Promise.all([waitRoom(a, 'finished'), waitRoom(b, 'finished'), waitRoom(s, 'finished')]);
      const expected = [[names.a, a2.score, a2.move_count], [names.b, b2.score, b2.move_count]]
        .sort((x, y) => (y[1] - x[1]) || (x[2] - y[2]) || (x[0] < y[0] ? -1 : 1));
      for (const p of [a, b, s]) {
        await p.locator(testid('room-standings')).waitFor();
        const rows = await p.$$eval('[data-testid="standing"]', (els) => els.map((e) => [e.dataset.player,
          Number(e.querySelector('[data-testid="standing-score"]').textContent), Number(e.dataset.rank)]));
        assert.deepEqual(rows.map((r) => [r[0], r[1]]), expected.map((e) => [e[0], e[1]]));
        assert.equal(rows[0][2], 1);
        // What next: another room, or this board alone.
        assert.equal(await p.getAttribute(testid('room-new'), 'href'), '/?view=rooms');
        const alone = new URL(await p.getAttribute(testid('room-play-alone'), 'href'), p.base);
        const room = await p.evaluate(() => window.__tilecrush.room.room);
        assert.deepEqual([alone.searchParams.get('mode'), alone.searchParams.get('preset'), alone.searchParams.get('seed')],
          [room.mode, room.preset, room.seed]);
      }
      assert.equal(await a.locator(testid('room-waiting')).count(), 0, 'no more waiting once the room is over');
      const watched = await watchedBoard(s, names.a, a2.move_count);
      assert.equal(watched.over, true);
      const st = await roomState(s);
      assert.equal(st.mismatches, 0);
      assert.equal(st.gaps, 0);
      assert.equal(st.resyncs, 0);
      for (const p of [a, b]) assert.equal(await p.evaluate(() => window.__tilecrush.hashMismatches), 0);
      for (const p of [a, b, s]) assert.deepEqual(p.errors, []);
    });
  });

  test('unknown codes; leaving the lobby passes the host on; a started room offers to watch; a spectator reconnects', async () => {
    const [a, b] = await Promise.all([openPage(env, { name: uniqueName('host') }), openPage(env, { name: uniqueName('late') })]);
    try {
      // An unknown code: the join form says so (bad_links.test.mjs has more).
      await b.goto(`${b.base}/?view=rooms&room=ZZZZZZ`);
      await b.locator(testid('room-join-message')).filter({ hasText: /No room with this code/ }).waitFor();
      assert.equal(await b.locator(testid('btn-leave-room')).count(), 0);

      await a.goto(`${a.base}/?view=rooms`);
      await a.selectOption(testid('room-mode'), 'match3');
      await a.selectOption(testid('room-preset'), 'classic');
      await a.click(testid('btn-create-room'));
      await waitRoom(a, 'lobby', 'player');
      const code = (await roomState(a)).code;

      // Joining by typing the code (any case) in the join form.
      await b.goto(`${b.base}/?view=rooms`);
      await b.fill(testid('room-code-input'), code.toLowerCase());
      await b.click(testid('btn-join-room'));
      await waitRoom(b, 'lobby', 'player');
      await a.waitForFunction(() => document.querySelectorAll('[data-testid="room-player"]').length === 2);
      await a.click(testid('btn-leave-room'));
      await a.locator(testid('room-create')).waitFor();
      await b.locator(testid('btn-start-room')).waitFor();
      assert.equal(await b.locator('[data-testid="room-player"][data-host="true"]').getAttribute('data-name'),
        b.playerName);
      await b.click(testid('btn-start-room'));
      await waitRoom(b, 'playing', 'player');
      await waitIdle(b);
      assert.equal((await gameView(b)).mode, 'match3');
      // Leaving mid-race is asked first, in the site's dialog; Escape keeps racing.
      await b.click(testid('btn-leave-room'));
      await b.locator(testid('confirm-dialog')).waitFor();
      assert.equal(await b.textContent('[data-testid="confirm-dialog"] h2'), 'Leave the race?');
      await b.keyboard.press('Escape');
      assert.equal(await b.locator(testid('confirm-dialog')).count(), 0);
      assert.equal((await roomState(b)).role, 'player');
      assert.equal((await roomState(b)).state, 'playing');

      // A comes back by the share link: the race has started, so A may watch.
      await a.goto(`${a.base}/?view=rooms&room=${code}`);
      await a.locator(testid('btn-watch-instead')).waitFor();
      assert.match(await a.textContent(testid('room-message')), /cannot play in this room/);
      await a.click(testid('btn-watch-instead'));
      await waitRoom(a, 'playing', 'spectator');
      assert.match(a.url(), /watch=1/);
      await a.locator(`[data-testid="watch-card"][data-player="${b.playerName}"]`).waitFor();

      // The spectator's connection drops: it joins again and follows on.
      const joins = (await roomState(a)).joins;
      await a.evaluate(() => window.__tilecrush.dropConnection());
      await a.waitForFunction((n) => window.__tilecrush.room.joins > n, joins, { timeout: 20000 });
      await waitRoom(a, 'playing', 'spectator');

      // So does the player's: the room and the game come back, play goes on
      // (a match-3 swap the server hints), and the spectator sees it.
      const bJoins = (await roomState(b)).joins;
      await b.evaluate(() => window.__tilecrush.dropConnection());
      await b.waitForFunction((n) => window.__tilecrush.room.joins > n, bJoins, { timeout: 20000 });
      await waitIdle(b);
      const { swap } = await b.evaluate(() => window.__tilecrush.net.request('hint', { game_id: window.__tilecrush.view.game_id }));
      await b.locator(testid('board')).scrollIntoViewIfNeeded();
      await clickCell(b, swap[0][0], swap[0][1]);
      await clickCell(b, swap[1][0], swap[1][1]);
      await b.waitForFunction(() => window.__tilecrush.view.move_count === 1);
      await waitIdle(b);
      await expectSameBoard(a, b, b.playerName);
      // A room race's Give up asks first once the game has moves.
      await b.click(testid('btn-resign'));
      await b.locator(testid('confirm-dialog')).waitFor();
      await b.click(testid('confirm-ok'));
      await waitRoom(a, 'finished', 'spectator');
      await a.locator(`[data-testid="standing"][data-player="${b.playerName}"]`).waitFor();
      assert.equal((await roomState(a)).boards[b.playerName].over, true);
      assert.deepEqual(a.errors, []);
      assert.deepEqual(b.errors, []);
    } finally {
      await a.context().close();
      await b.context().close();
    }
  });
});
