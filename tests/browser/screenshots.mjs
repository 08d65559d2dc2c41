// Takes the README's screenshots: each mode at desktop and phone width,
// after a few moves, and a room (a player's race and a spectator's view),
// into docs/screenshots/ (or $SHOTS_OUT). Run from tests/browser:
//   node screenshots.mjs
// (the release build's server; TILECRUSH_SERVER names another, a relative
// path read from the repository's root, as lib/server.mjs says).
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './lib/chromium.mjs';
import { startServer, REPO } from './lib/server.mjs';
import { openPage, waitIdle, gameView, clickCell, hoverCell, groupOf } from './lib/harness.mjs';

const OUT = process.env.SHOTS_OUT ? path.resolve(process.env.SHOTS_OUT) : path.join(REPO, 'docs', 'screenshots');
const SIZES = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };
const GAMES = [
  { mode: 'same', preset: 'normal', seed: 'readme' },
  { mode: 'match3', preset: 'classic', seed: 'readme' },
  { mode: 'hidden', preset: 'classic', seed: 'readme' },
];

async function playALittle(page, mode) {
  const v = await gameView(page);
  if (mode === 'same') {
    for (let y = 0; y < v.height; y++) {
      for (let x = 0; x < v.width; x++) {
        if (v.board[y][x] > 0 && groupOf(v.board, x, y).length >= 3) {
          await clickCell(page, x, y);
          await waitIdle(page);
          const after = await gameView(page);
          await hoverCell(page, Math.min(x + 2, after.width - 1), after.height - 1);
          return;
        }
      }
    }
  } else if (mode === 'hidden') {
    // A peek is deliberate: peek mode, then a click (hovering peeks nothing).
    await page.click('[data-testid="btn-peek"]');
    await clickCell(page, 2, 2);
    await waitIdle(page);
  }
}

// Two players race in a room while a third page watches; shots of the
// host's race and of the spectator's boards.
async function roomShots(env, size, viewport) {
  const stamp = Date.now() % 100000;
  const open = (who) => openPage(env, { name: `${who}_${size}_${stamp}`, viewport, anim: 0.05 });
  const [a, b, s] = await Promise.all([open('ada'), open('bo'), open('sam')]);
  try {
    await a.goto(`${env.server.base}/?view=rooms`);
    await a.fill('[data-testid="room-seed"]', 'readme');
    await a.click('[data-testid="btn-create-room"]');
    await a.waitForFunction(() => window.__tilecrush.room && window.__tilecrush.room.joined);
    const { code } = await a.evaluate(() => window.__tilecrush.room);
    const joined = () => window.__tilecrush.room && window.__tilecrush.room.joined;
    await b.goto(`${env.server.base}/?view=rooms&room=${code}`);
    await b.waitForFunction(joined);
    await s.goto(`${env.server.base}/?view=rooms&room=${code}&watch=1`);
    await s.waitForFunction(joined);
    await a.click('[data-testid="btn-start-room"]');
    for (const p of [a, b, a]) {
      await waitIdle(p);
      await p.locator('[data-testid="board"]').scrollIntoViewIfNeeded();
      await playALittle(p, 'same');
      await waitIdle(p);
    }
    await s.waitForTimeout(600);
    for (const [who, p] of [['race', a], ['watch', s]]) {
      await p.evaluate(() => window.scrollTo(0, 0));
      const file = path.join(OUT, `rooms-${who}-${size}.png`);
      await p.screenshot({ path: file, fullPage: size === 'phone' });
      console.log('wrote', path.relative(REPO, file));
    }
  } finally {
    for (const p of [a, b, s]) await p.context().close();
  }
}

const server = await startServer();
const browser = await launch();
fs.mkdirSync(OUT, { recursive: true });
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const g of GAMES) {
      const page = await openPage({ browser, server }, { name: `shots_${size}_${g.mode}_${Date.now() % 100000}`, viewport, anim: 0.05 });
      await page.goto(`${server.base}/?mode=${g.mode}&preset=${g.preset}&seed=${g.seed}`);
      await waitIdle(page);
      await playALittle(page, g.mode);
      await page.waitForTimeout(400);
      const file = path.join(OUT, `${g.mode}-${size}.png`);
      await page.screenshot({ path: file, fullPage: size === 'phone' });
      console.log('wrote', path.relative(REPO, file));
      await page.context().close();
    }
    await roomShots({ browser, server }, size, viewport);
  }
} finally {
  await browser.close();
  await server.stop();
}
