// Boot: header, connection, and a small router over the query string so
// that only `/` has to be served:
//   /?mode=same&preset=hard&seed=abc   play that board (no seed: random)
//   /?view=leaderboard&mode=&preset=&seed=[&offset=][&around=1]
//   /?view=player&name=NAME    /?view=replay&game=ID    /?view=rooms
//   /?view=competitions   /?view=competition&id=ID   /?view=organise
//   /?view=seasons&mode=&period=[&offset=][&around=1]
//   /?view=archive[&mode=]                      closed boards, page by page
//   /?mode=&preset=&daily=1                     today's daily board
//   /?mode=&preset=&competition=ID&game=GAME    resume a competition attempt
//   /?view=leaderboard&competition=ID[&offset=][&around=1]
//   /?view=race&game=ID    race the entry ID's ghost on its closed board
// Test hooks: data-testid attributes, and window.__tilecrush (below).

import { h, clear, link } from './dom.js';
import { t, getLang, setLang, translateTree, onLangChange, DICTS } from './i18n.js';
import { Connection } from './net.js';
import { identity } from './identity.js';
import { openAccountPanel } from './account.js';
import { validBoard } from './presets.js';
import { setSpeed, getSpeed } from './animate.js';
import { visibleRows } from './model.js';
import { homePage } from './pages/home.js';
import { playPage } from './pages/play.js';
import { leaderboardPage } from './pages/leaderboard.js';
import { playerPage } from './pages/player.js';
import { replayPage, replayDebug } from './pages/replay.js';
import { roomsPage, handlePush, roomDebug, roomIdle } from './pages/rooms.js';
import { competitionsPage } from './pages/competitions.js';
import { competitionPage, competitionDebug } from './pages/competition.js';
import { organisePage } from './pages/organise.js';
import { racePage, raceDebug } from './pages/race.js';
import { seasonsPage } from './pages/seasons.js';
import { archivePage } from './pages/archive.js';
import { notFoundPage } from './pages/not_found.js';

const main = document.getElementById('main');
main.tabIndex = -1;  // the skip link's target
const net = new Connection({ identity });
let game = null;
let cleanup = null;
let connected = false;
// A page with something to lose (a running competition attempt) asks before
// an in-app navigation: leaveGuard() gives null (nothing to ask) or a
// promise of true (leave) or false (stay). shownUrl is the address of the
// page on screen, or leaveHere() when the page gives one (its address may
// have changed since it was routed to, by history.replaceState).
let leaveGuard = null;
let leaveHere = null;
let shownUrl = location.pathname + location.search;
// Whether the page on show can be read by a visitor (page.forVisitors).
let shownForVisitors = false;

const app = {
  net,
  setGame(c) { game = c; },
  // Opens the WebSocket (hello, and the name dialog when no name is kept)
  // the first time a page needs a player; later calls do nothing.
  connect() {
    if (connected) return;
    connected = true;
    net.connect();
  },
  setLeaveGuard(fn, here = null) {
    leaveGuard = fn;
    leaveHere = fn ? here : null;
  },
  navigate(url, { force = false, replace = false, confirmed = false } = {}) {
    const asked = !confirmed && leaveGuard ? leaveGuard() : null;
    if (asked) {
      asked.then((ok) => { if (ok) app.navigate(url, { force, replace, confirmed: true }); });
      return;
    }
    const target = new URL(url, location.origin);
    const same = target.search === location.search;
    if (replace || same) history.replaceState(null, '', target);
    else history.pushState(null, '', target);
    if (!same || force) route();
  },
};

function params() {
  return Object.fromEntries(new URLSearchParams(location.search));
}

function route() {
  if (cleanup) cleanup();
  cleanup = null;
  shownUrl = location.pathname + location.search;
  clear(main);
  const p = params();
  let page;
  // Every page is at `/` (or `/index.html`); any other path was answered
  // with this client by the server's 404, as is a view nobody knows.
  if (!['/', '/index.html'].includes(location.pathname)) page = notFoundPage;
  else if (p.view === 'leaderboard') page = leaderboardPage;
  else if (p.view === 'player') page = playerPage;
  else if (p.view === 'replay') page = replayPage;
  else if (p.view === 'rooms') page = roomsPage;
  else if (p.view === 'competitions') page = competitionsPage;
  else if (p.view === 'competition') page = competitionPage;
  else if (p.view === 'organise') page = organisePage;
  else if (p.view === 'race') page = racePage;
  else if (p.view === 'seasons') page = seasonsPage;
  else if (p.view === 'archive') page = archivePage;
  else if (p.view !== undefined) page = notFoundPage;
  else if (validBoard(p.mode, p.preset)) page = playPage;
  // A board no mode or preset has (a mistyped link): no such page either.
  else if (p.mode !== undefined || p.preset !== undefined) page = notFoundPage;
  else page = homePage;
  document.body.dataset.page = page.name.replace(/Page$/, '');
  // A page that can do without a player (page.withoutPlayer(params) true)
  // is read before any hello: no name is asked for it. A page a visitor
  // can read (page.forVisitors(params) true: leaderboards, seasons, a
  // player's page, a replay) does without one while this browser has no
  // name, so a visitor is not made to choose a name to look; a browser
  // with a name connects there too, so its own rows are marked. The first
  // page that needs a player connects, and the connection then stays.
  // After the player closed the name dialog (net.declines), such pages stay
  // without a connection, even with a stored name the server refused, until
  // a page that needs a player connects again.
  const declined = !connected && net.declines > 0;
  shownForVisitors = Boolean(page.forVisitors && page.forVisitors(p));
  const visitor = shownForVisitors && (!identity.get() || declined);
  if (!visitor && !(page.withoutPlayer && page.withoutPlayer(p))) app.connect();
  cleanup = page(main, app, p) || null;
  window.scrollTo(0, 0);
}

function header() {
  const status = h('span', { class: 'net-status', testid: 'net-status', dataset: { status: 'idle' } });
  const who = h('span', { class: 'who' });
  const langSel = h('select', { testid: 'lang-select', 'aria-label': t('lang.label') },
    Object.keys(DICTS).map((l) => h('option', { value: l }, l === 'ja' ? '日本語' : 'English')));
  langSel.value = getLang();
  langSel.addEventListener('change', () => setLang(langSel.value));
  const setStatus = () => {
    const s = net.status;
    status.dataset.status = s;
    status.title = s === 'online' ? t('net.online') : s === 'offline' ? t('net.offline') : t('net.connecting');
    status.textContent = status.title;
    // Not connected yet (a page without a player): nothing to report.
    status.hidden = s === 'idle';
  };
  const setWho = () => {
    clear(who);
    // Before any connection (a page without a player), the name this browser
    // signs in with: the header stays the same from page to page.
    const name = net.player ? net.player.name : identity.get()?.name;
    if (!name) return;
    // testid `me` only once signed in: tests wait for it as the sign of a hello.
    who.append(link(`/?${new URLSearchParams({ view: 'player', name })}`,
      name, { testid: net.player ? 'me' : 'me-stored', title: name }),
    // History (issue 24): the player's own games and calendar.
    link(`/?${new URLSearchParams({ view: 'player', name, section: 'history' })}`,
      null, { i18n: 'nav.myGames', testid: 'nav-my-games', class: 'my-games' }));
    // The account panel: a recovery code for this name (account.js), on
    // every page, also one read without a connection (it connects when a
    // code is asked for).
    who.append(h('button', { type: 'button', class: 'account-open', testid: 'account-open', i18n: 'account.open',
      onclick: () => openAccountPanel(net, { connect: () => app.connect() }) }));
  };
  net.addEventListener('status', setStatus);
  net.addEventListener('ready', setWho);
  onLangChange(() => { setStatus(); langSel.value = getLang(); langSel.setAttribute('aria-label', t('lang.label')); });
  setStatus();
  setWho();
  // For the keyboard: past the navigation to the board of a game page, or
  // to the page's content (a fragment link would be a navigation here).
  const skip = h('a', { href: '#main', class: 'skip-link', testid: 'skip-link', i18n: 'nav.skip' });
  skip.addEventListener('click', (e) => {
    e.preventDefault();
    const board = main.querySelector('[data-testid="board"][tabindex]');
    (board || main).focus();
  });
  return h('header', { class: 'top' }, skip,
    link('/', 'tilecrush', { class: 'brand', testid: 'nav-home' }),
    h('nav', {},
      link('/', null, { i18n: 'nav.home', testid: 'nav-play' }),
      link('/?view=leaderboard', null, { i18n: 'nav.leaderboard', testid: 'nav-leaderboard' }),
      link('/?view=rooms', null, { i18n: 'nav.rooms', testid: 'nav-rooms' }),
      link('/?view=competitions', null, { i18n: 'nav.competitions', testid: 'nav-competitions' }),
      link('/?view=seasons', null, { i18n: 'nav.seasons', testid: 'nav-seasons' }),
      link('/?view=archive', null, { i18n: 'nav.archive', testid: 'nav-archive' }),
      link('/?view=organise', null, { i18n: 'nav.organise', testid: 'nav-organise' })),
    h('div', { class: 'right' }, who, status, langSel));
}

document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[data-route]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.origin);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  app.navigate(url.pathname + url.search, { force: true });
});
// The player closed the name dialog: a page a visitor can read (asked by
// its Play button) is drawn again as the visitor's; any other page needs a
// player, so the home page (which a visitor can read) is shown. The next
// page that needs a player asks again.
net.addEventListener('declined', () => {
  connected = false;
  if (shownForVisitors) route();
  else app.navigate('/', { force: true, confirmed: true });
});
window.addEventListener('popstate', () => {
  const asked = leaveGuard ? leaveGuard() : null;
  if (!asked) {
    route();
    return;
  }
  // Back or forward during a running attempt: the page stays until the
  // player says, then goes where they asked.
  const target = location.pathname + location.search;
  history.pushState(null, '', (leaveHere && leaveHere()) || shownUrl);
  asked.then((ok) => { if (ok) app.navigate(target, { force: true, confirmed: true }); });
});
// Pushes: a room's, or the end of the game on screen that the server
// decided on its own (a competition closing: game_over with reason closed).
net.addEventListener('push', (e) => {
  if (handlePush(e.detail)) return;
  if (game) game.applyPush(e.detail);
});

// Stable hooks for browser tests and debugging.
window.__tilecrush = {
  net,
  app,
  get game() { return game; },
  // The current GameView, with the client's own board, score and move count.
  get view() {
    if (!game || !game.gameView || !game.model) return null;
    const m = game.model;
    return { ...game.gameView, board: visibleRows(m, true), score: m.score, move_count: m.moveCount,
      over: m.over, peeks: m.peeks, selected: [...m.selected.keys()].map((k) => k.split(',').map(Number)) };
  },
  get model() { return game ? game.model : null; },
  get lastStateHash() { return game ? game.lastStateHash : null; },
  get computedHash() { return game ? game.lastComputedHash : null; },
  get lastReply() { return game ? game.lastReply : null; },
  get hashMismatches() { return game ? game.hashMismatches : 0; },
  get resyncs() { return game ? game.resyncs : 0; },
  get busy() { return !!(game && game.busy); },
  idle() { return game ? game.idle() : Promise.resolve(); },
  // The room on screen (rooms page): role, room view, standings, and a
  // spectator's boards with their hashes; roomIdle() waits for animations.
  get room() { return roomDebug(); },
  roomIdle,
  // The competition on screen: state, commitment, key and its check
  // ('verified', 'mismatch', ...), attempts, leaderboard, results digest.
  get competition() { return competitionDebug(); },
  // The replay on screen: step, steps, playing, hash check, score.
  get replay() { return replayDebug(); },
  // The ghost race on screen: the ghost's step, score and hash check, the
  // record of who was ahead after each move, the result.
  get race() { return raceDebug(); },
  setAnimSpeed: setSpeed,
  getAnimSpeed: getSpeed,
  setLang,
  dropConnection() { net.drop(); },
  // The running competition attempts as of the last hello (running.js).
  get running() { return net.running; },
};

document.body.prepend(header());
translateTree();
route();
