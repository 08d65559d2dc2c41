// Shared setup of the browser tests: one real server and one headless
// chromium per test file, a fresh browser context per test, page helpers
// that use the client's test hooks (data-testid, window.__tilecrush), and a
// screenshot in screenshots/ when a test fails.

import { describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, chromiumAvailable, CHROMIUM_PATH } from './chromium.mjs';
import { startServer, serverAvailable, serverPath } from './server.mjs';
import { explain, wsValidators } from '../../schema/ws_schemas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const SCREENSHOTS = path.resolve(here, '..', 'screenshots');

// TILECRUSH_REQUIRE_SERVER=1 (for CI) turns a missing server or chromium
// into a failure instead of a skip.
function skipReason() {
  if (process.env.TILECRUSH_REQUIRE_SERVER === '1') return false;
  if (!chromiumAvailable()) return `no chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
  if (!serverAvailable()) return `no server binary at ${serverPath()} (build it, or set TILECRUSH_SERVER)`;
  return false;
}

let nameCounter = 0;
export function uniqueName(prefix = 'p') {
  nameCounter += 1;
  return `${prefix}${process.pid % 10000}_${Date.now() % 100000}_${nameCounter}`;
}

// describe() with a server and a browser; `fn(env)` declares the tests.
// `serverOptions` go to startServer (e.g. {organisers: ['org1']}: tokens in
// env.server.organisers).
export function browserSuite(title, fn, serverOptions = {}) {
  const skip = skipReason();
  describe(title, { skip }, () => {
    const env = { server: null, browser: null, schemaViolations: [], framesChecked: 0 };
    // Every WebSocket message of every page, in both directions, must match
    // protocol/schema (watchSchema): a test whose pages saw one that did not fails.
    afterEach(() => {
      const seen = env.schemaViolations.splice(0);
      if (seen.length) {
        throw new Error(`${seen.length} WebSocket messages do not match protocol/schema:\n${seen.slice(0, 10).join('\n')}`);
      }
    });
    before(async () => {
      env.server = await startServer(serverOptions);
      env.browser = await launch();
    });
    after(async () => {
      console.log(`${title}: ${env.framesChecked} WebSocket messages checked against protocol/schema`);
      if (env.browser) await env.browser.close();
      if (env.server) await env.server.stop();
    });
    fn(env);
  });
}

// Opens a page as a named player (no name: the name dialog will show).
export async function openPage(env, { name = uniqueName(), lang = 'en', anim = 0.1,
  viewport = { width: 900, height: 1000 }, identity = null, contextOptions = {} } = {}) {
  const context = await env.browser.newContext({ viewport, ...contextOptions });
  const ident = identity || (name ? { name } : null);
  await context.addInitScript(({ ident, lang, anim }) => {
    if (sessionStorage.getItem('tilecrush.test.init')) return;
    sessionStorage.setItem('tilecrush.test.init', '1');
    if (ident) localStorage.setItem('tilecrush.identity', JSON.stringify(ident));
    if (lang) localStorage.setItem('tilecrush.lang', lang);
    localStorage.setItem('tilecrush.animSpeed', String(anim));
  }, { ident, lang, anim });
  const page = await context.newPage();
  watchSchema(env, page);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) page.errors.push(m.text()); });
  page.base = env.server.base;
  page.playerName = name;
  return page;
}

// Validates each WebSocket frame the page sends or receives against
// protocol/schema; mismatches go to env.schemaViolations.
function watchSchema(env, page) {
  const { client, server } = wsValidators();
  const check = (validate, direction) => (frame) => {
    env.framesChecked += 1;
    const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      env.schemaViolations.push(`${direction}: not JSON: ${text.slice(0, 200)}`);
      return;
    }
    if (!validate(message)) {
      env.schemaViolations.push(`${direction}: ${explain(validate, message)}\n    ${text.slice(0, 300)}`);
    }
  };
  page.on('websocket', (ws) => {
    ws.on('framereceived', check(server, 'server -> client'));
    ws.on('framesent', check(client, 'client -> server'));
  });
}

// A test's name as a screenshot's file name.
export const shotName = (t) => t.name.replace(/[^a-z0-9]+/gi, '_');

// Runs a test body; on failure saves a screenshot named after the test.
export async function withPage(t, env, opts, body) {
  const page = await openPage(env, opts);
  try {
    await body(page);
  } catch (err) {
    await screenshot(page, shotName(t));
    throw err;
  } finally {
    await page.context().close();
  }
}

export const testid = (id) => `[data-testid="${id}"]`;

// For a page that must never ask for a player name: counts the hellos it
// sends from now on, and gives a check that, after a moment, finds no
// name dialog open and no hello sent (`where` names the step in a failure).
export function nameNeverAsked(page) {
  let hellos = 0;
  page.on('websocket', (ws) => ws.on('framesent', (f) => {
    if (String(f.payload).includes('"hello"')) hellos += 1;
  }));
  return async (where) => {
    await page.waitForTimeout(300);
    assert.equal(await page.locator(testid('name-dialog')).count(), 0, `${where}: no name dialog`);
    assert.equal(hellos, 0, `${where}: no hello`);
  };
}

// Saves screenshots/<name>.png of the whole page; never fails the test.
export async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true }).catch(() => {});
}

// screenshot() of each open page of {key: page} (or an array), as
// `${prefix}_${key}` (after a failure).
export async function screenshotPages(pages, prefix) {
  for (const [key, page] of Object.entries(pages)) {
    if (page && !page.isClosed()) await screenshot(page, `${prefix}_${key}`);
  }
}

// Runs a test body on several pages, {key: page} or an array, which the
// body may still fill: after a failure, screenshotPages(pages, prefix); at
// the end every page's context is closed.
export async function withPages(pages, prefix, body) {
  try {
    await body();
  } catch (err) {
    await screenshotPages(pages, prefix);
    throw err;
  } finally {
    for (const page of Object.values(pages)) {
      if (page && !page.isClosed()) await page.context().close().catch(() => {});
    }
  }
}

// For a test that needs the suite's organiser tokens (browserSuite's
// `organisers`): true after skipping it when the server could not make
// them; with TILECRUSH_REQUIRE_SERVER=1 that is a failure instead.
export function skipWithoutOrganisers(t, env) {
  if (!env.server.organiserError) return false;
  if (process.env.TILECRUSH_REQUIRE_SERVER === '1') throw env.server.organiserError;
  t.skip(`no organiser token: ${env.server.organiserError.message.split('\n')[0]}`);
  return true;
}

// Waits until a game is loaded and every queued request is answered.
export async function waitIdle(page, timeout = 15000) {
  await page.waitForFunction(() => window.__tilecrush && window.__tilecrush.view && !window.__tilecrush.busy,
    null, { timeout });
  await page.evaluate(() => window.__tilecrush.idle());
}

// Gives up the game on the play page: a game with moves asks first (a
// competition attempt with its own question); the question is accepted.
export async function giveUp(page) {
  await page.click(testid('btn-resign'));
  await page.waitForFunction(() => document.querySelector('[data-testid="confirm-dialog"]')
    || (window.__tilecrush.view && window.__tilecrush.view.over));
  if (await page.locator(testid('confirm-dialog')).count()) await page.click(testid('confirm-ok'));
}

export const gameView = (page) => page.evaluate(() => window.__tilecrush.view);

// Opens the game at `query` (the address after "/?"), waits until it is
// loaded and idle, and returns its view.
export async function openGame(page, query) {
  await page.goto(`${page.base}/?${query}`);
  await waitIdle(page);
  return gameView(page);
}

// The centre of cell (x, y) in page coordinates, from the board's box.
export async function cellPoint(page, x, y) {
  const view = await gameView(page);
  const box = await page.locator(testid('board')).boundingBox();
  return { x: box.x + ((x + 0.5) * box.width) / view.width, y: box.y + ((y + 0.5) * box.height) / view.height };
}

export async function hoverCell(page, x, y) {
  const p = await cellPoint(page, x, y);
  await page.mouse.move(p.x, p.y);
}

export async function clickCell(page, x, y) {
  const p = await cellPoint(page, x, y);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.up();
}

export async function dragCell(page, from, to) {
  const a = await cellPoint(page, from[0], from[1]);
  const b = await cellPoint(page, to[0], to[1]);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
  await page.mouse.move(b.x, b.y, { steps: 3 });
  await page.mouse.up();
}

// Orthogonally connected cells of one colour (board rows, top first).
export function groupOf(board, x, y) {
  const c = board[y][x];
  const out = [[x, y]];
  const seen = new Set([`${x},${y}`]);
  for (let i = 0; i < out.length; i++) {
    const [cx, cy] = out[i];
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const nx = cx + dx;
      const ny = cy + dy;
      if (board[ny] && board[ny][nx] === c && c > 0 && !seen.has(`${nx},${ny}`)) {
        seen.add(`${nx},${ny}`);
        out.push([nx, ny]);
      }
    }
  }
  return out;
}

// Clicks the largest group up to `n` times (or until the game ends),
// checking after every move that the client's hash equals the server's;
// returns the view it ends with.
export async function playLargestGroups(page, assert, n) {
  for (let i = 0; i < n; i++) {
    await waitIdle(page);
    const v = await gameView(page);
    if (v.over) return v;
    let best = null;
    for (let y = 0; y < v.height; y++) {
      for (let x = 0; x < v.width; x++) {
        if (v.board[y][x] <= 0) continue;
        const size = groupOf(v.board, x, y).length;
        if (size >= 2 && (!best || size > best.size)) best = { x, y, size };
      }
    }
    assert.ok(best, 'a game that is not over has a group of two');
    await clickCell(page, best.x, best.y);
    await page.waitForFunction((mc) => window.__tilecrush.view.move_count > mc || window.__tilecrush.view.over,
      v.move_count, { timeout: 10000 });
    await waitIdle(page);
    const hashes = await page.evaluate(() => [window.__tilecrush.computedHash, window.__tilecrush.lastStateHash]);
    assert.equal(hashes[0], hashes[1], 'client state_hash equals the server\'s');
  }
  await waitIdle(page);
  return gameView(page);
}

// Plays a Same Game to its end by clicking the largest group each time.
export async function playSameToEnd(page, assert, maxMoves = 200) {
  const v = await playLargestGroups(page, assert, maxMoves);
  if (!v.over) throw new Error('game did not end');
  return v;
}
