// One competition (/?view=competition&id=ID): its board and rules, a
// countdown to the opening or the close, the commitment, the player's
// attempts left and the Play button (new_game with `competition`, then the
// play page; refusals stay here as messages), a live leaderboard while it
// is open, and after the close the revealed key checked against the
// commitment in the browser (SHA-256 with WebCrypto), the results with
// their flags, and the JSON and CSV exports.
// Its organiser (or the operator), with the token kept by the Organise page,
// sees every entry (the results, open or closed) with a Disqualify button on
// each ranked row, which opens the confirmation (competitions/disqualify.js).
// Read that way the page needs no player name: it connects only for Play.
// Test hook: window.__tilecrush.competition (competitionDebug below).

import { h, clear, link } from '../dom.js';
import { t, onLangChange, formatDuration, playersText } from '../i18n.js';
import { api } from '../api.js';
import { identity } from '../identity.js';
import { organiserToken } from './organise.js';
import {
  attemptUrl, attemptsInfo, checkCommitment, compLeaderboardUrl, phase, resultsDigest, validId,
} from '../competitions/logic.js';
import {
  boardName, compName, formatWindow, leaderboardTable, resultsTable, ruleText,
} from '../competitions/views.js';
import { confirmDisqualify } from '../competitions/disqualify.js';
import { fillClosedStandings } from '../archive/closed_board.js';
import { fetchRunning, runningIn } from '../running.js';

const LIVE_MS = 4000;
const headSig = (v) => JSON.stringify([v.name, v.state, v.attempts, v.attempts_used, v.attempts_left, v.opens_at,
  v.closes_at, v.unlisted, v.organiser, v.mode, v.preset]);
const LIVE_ROWS = 20;
let debug = null;

export function competitionDebug() {
  return debug ? debug() : null;
}

export function competitionPage(root, app, params) {
  const id = String(params.id || '');
  let view = null;
  let fetchedAt = 0;
  let error = null;       // 'not_found': no competition has this id
  let board = null;       // live leaderboard answer
  let results = null;     // results answer
  let verify = null;      // {result, digest} for view.key
  let verifiedKey = null;
  let misses = 0;
  let pollTimer = null;
  let destroyed = false;
  let starting = false;
  // Whether the kept organiser token manages this competition: its
  // organiser's, or the operator's (GET /api/organiser/competitions says
  // whose the token is). null until known.
  let manager = null;
  let tokenOwner;  // the answer's `organiser`: a name, or null for the operator
  let dqDone = null;  // the player last disqualified from this page
  const resultsPager = { offset: 0 };  // the closed board's page of results

  const me = () => (app.net.player && app.net.player.name) || (identity.get() && identity.get().name) || null;

  const section = h('section', { class: 'competition', testid: 'competition-page', dataset: { state: 'loading' } });
  const head = h('div', { class: 'card comp-head' });
  const clock = h('p', { class: 'comp-clock', testid: 'comp-state', 'aria-live': 'polite' });
  const attempts = h('p', { class: 'comp-attempts', testid: 'comp-attempts' });
  const playBtn = h('button', { type: 'button', class: 'primary', testid: 'comp-play', i18n: 'comp.play' });
  const message = h('p', { class: 'message', testid: 'comp-message', role: 'status' });
  // The player's attempt still running here (from any tab or device): it is
  // resumed, and no other attempt starts while it runs.
  let running = null;
  const resumeBtn = h('button', { type: 'button', class: 'primary', testid: 'comp-resume', hidden: true });
  const runningLine = h('p', { class: 'comp-running', testid: 'comp-running', hidden: true });
  resumeBtn.addEventListener('click', () => { if (running) app.navigate(attemptUrl(running)); });
  const controls = h('div', { class: 'controls' }, playBtn, resumeBtn);
  const fairness = h('div', { class: 'card comp-fairness', testid: 'comp-fairness' });
  const standings = h('div', { class: 'card comp-standings' });
  section.append(head, fairness, standings);
  root.append(section);

  playBtn.addEventListener('click', async () => {
    if (starting) return;
    starting = true;
    playBtn.disabled = true;
    message.textContent = '';
    // An organiser reading the page has not said hello yet.
    app.connect();
    try {
      // A running attempt is resumed, never replaced by a new one: the list
      // is read now, whatever the page showed (it may not have loaded yet).
      const mine = runningIn(await fetchRunning(app.net), id);
      if (mine) {
        if (!destroyed) app.navigate(attemptUrl(mine));
        return;
      }
      const reply = await app.net.request('new_game', { competition: id });
      if (!destroyed) app.navigate(attemptUrl(reply.game));
    } catch (err) {
      starting = false;
      if (destroyed) return;
      message.textContent = err.code === 'not_allowed' ? t('comp.err.notAllowed', { message: err.message || '' })
        : err.code === 'not_found' ? t('comp.err.notFound')
          : t('err.generic', { message: err.message || err.code });
      refresh();
    }
  });

  function renderHead() {
    clear(head);
    if (error) {
      // The only error kept on the page: no competition has this id (the
      // others are messages while it polls on). The way on is the list.
      head.append(h('h2', { testid: 'comp-error-title' }, t('comp.missing.title')),
        h('p', { class: 'message', testid: 'comp-error' }, t('comp.missing.note')),
        h('p', {}, link('/?view=competitions', t('comp.missing.all'), { testid: 'comp-error-list' })));
      return;
    }
    if (!view) { head.append(h('p', {}, t('common.loading'))); return; }
    const href = new URL(`/?${new URLSearchParams({ view: 'competition', id: view.id })}`, location.origin).href;
    const share = h('input', { readonly: true, value: href, testid: 'comp-share', 'aria-label': t('comp.share') });
    head.append(...[
      h('h2', { testid: 'comp-name' }, compName(view),
        view.daily ? h('span', { class: 'badge' }, t('comps.daily')) : null),
      h('dl', { class: 'comp-facts' },
        h('dt', {}, t('preset.label')), h('dd', { testid: 'comp-board' }, boardName(view)),
        h('dt', {}, t('comp.when')), h('dd', { testid: 'comp-window' }, formatWindow(view.opens_at, view.closes_at)),
        h('dt', {}, t('comp.rules')), h('dd', { testid: 'comp-rule' }, ruleText(view)),
        view.organiser ? [h('dt', {}, t('comp.organiser')), h('dd', {}, view.organiser)] : null),
      view.unlisted ? h('p', { class: 'note' }, t('comp.unlisted')) : null,
      clock,
      attempts,
      runningLine,
      controls,
      message,
      h('div', { class: 'share' }, h('label', {}, t('comp.share')), share)].filter(Boolean));
    const info = attemptsInfo(view);
    attempts.textContent = info ? t(info.key, info.vars) : '';
    tick();
  }

  function renderFairness() {
    clear(fairness);
    // No card until there is a competition to show (not an empty one under
    // the loading line or the error).
    fairness.hidden = !view;
    if (!view) return;
    fairness.append(
      h('h3', { i18n: 'comp.commitment' }),
      h('code', { class: 'hex', testid: 'comp-commitment' }, view.commitment || ''),
      h('p', { class: 'note' }, t('comp.commitmentNote')),
      h('h3', { i18n: 'comp.key' }));
    if (!view.key) {
      fairness.append(h('p', { class: 'note', testid: 'comp-key-pending' }, t('comp.keyPending')));
      return;
    }
    const result = verify ? verify.result : 'checking';
    const text = {
      checking: t('comp.checking'), verified: t('comp.verified'), mismatch: t('comp.mismatch'),
      unavailable: t('comp.verifyUnavailable'), invalid: t('comp.verifyInvalid'),
    }[result];
    fairness.append(
      h('code', { class: 'hex', testid: 'comp-key' }, view.key),
      h('p', { class: result === 'verified' ? 'ok' : result === 'checking' ? 'note' : 'bad', testid: 'comp-verify',
        dataset: { result } }, text));
  }

  // What the standings show: they are drawn again only when it changes,
  // so that a button keeps the focus across the polls.
  let standingsSig = null;
  const currentSig = () => JSON.stringify([view && view.state, manager, board, results, dqDone]);
  function renderStandings() {
    standingsSig = currentSig();
    clear(standings);
    fillStandings();
    standings.hidden = standings.childElementCount === 0;
  }

  function fillStandings() {
    if (!view) return;
    const mine = me();
    if (manager && view.state === 'open') {
      // The organiser's view while it runs: every entry, disqualified ones
      // included, each ranked one with its Disqualify button.
      standings.append(h('h2', { i18n: 'comp.leaderboard' }), ...manageNotes());
      if (!results) { standings.append(h('p', {}, t('common.loading'))); return; }
      if (results.entries.length === 0) standings.append(h('p', { class: 'note', testid: 'comp-lb-empty' }, t('lb.empty')));
      else standings.append(h('div', { class: 'table-wrap' }, resultsTable(results.entries, mine, { mode: view.mode, onDisqualify, replays: false })));
      return;
    }
    if (view.state === 'closed') {
      fillClosedStandings(standings, { id, view, results, me: mine, manager, onDisqualify, manageNotes,
        pager: resultsPager, onPage: renderStandings });
      return;
    }
    if (view.state !== 'open') return;
    standings.append(h('h2', { i18n: 'comp.leaderboard' }));
    if (!board) { standings.append(h('p', {}, t('common.loading'))); return; }
    if (board.entries.length === 0) standings.append(h('p', { class: 'note', testid: 'comp-lb-empty' }, t('lb.empty')));
    else standings.append(h('div', { class: 'table-wrap' }, leaderboardTable(board.entries, mine, view.mode)));
    standings.append(h('p', { testid: 'comp-lb-foot' },
      board.total > 0 ? `${playersText(board.total)} · ` : '',
      link(compLeaderboardUrl(id), t('comp.fullLeaderboard'), { testid: 'comp-full-lb' })));
  }

  // Above the organiser's table: what it offers, and the last
  // disqualification made from this page.
  function manageNotes() {
    const notes = [h('p', { class: 'note', testid: 'comp-manage-note' }, t('dq.note'))];
    if (dqDone != null) {
      notes.push(h('p', { class: 'ok', testid: 'comp-dq-done', role: 'status' }, t('comp.dq.done', { player: dqDone })));
    }
    return notes;
  }

  // A row's Disqualify button: the confirmation, then the POST; the
  // results are read again at once, so the row shows the outcome.
  async function onDisqualify(entry, button) {
    const player = String(entry.player);
    const sent = await confirmDisqualify(player, (reason) => api.disqualify(id, { player, reason }, organiserToken()));
    if (destroyed) return;
    if (sent) {
      dqDone = player;
      await refresh();
    } else {
      // Back to the row's button (the table may have been drawn again).
      const again = button && button.isConnected ? button
        : standings.querySelector(`[data-testid="comp-result-row"][data-player="${CSS.escape(player)}"] [data-testid="comp-dq"]`);
      if (again) again.focus();
    }
  }

  // Whose the kept token is, once per page: manager true when it is this
  // competition's organiser's or the operator's.
  async function checkManager() {
    const token = organiserToken();
    if (!token) { manager = false; return; }
    try {
      const answer = await api.myCompetitions(token, { limit: 1 });
      tokenOwner = answer.organiser;
    } catch {
      manager = false;  // refused (401) or unreachable: a reader's page
      return;
    }
    if (destroyed) return;
    decideManager();
  }
  function decideManager() {
    if (tokenOwner === undefined || !view) return;
    manager = tokenOwner === null || (view.organiser != null && view.organiser === tokenOwner);
  }

  function render() {
    section.dataset.state = error ? 'error' : view ? view.state : 'loading';
    renderHead();
    renderFairness();
    renderStandings();
  }

  // The countdown, every second; the server's view is asked again when it
  // runs out (schedule()).
  function tick() {
    if (!view) return;
    const p = phase(view, fetchedAt, Date.now());
    let text;
    if (p.state === 'closed') text = p.pending ? t('comp.state.closing') : t('comp.state.closed');
    else if (p.state === 'open') text = p.pending ? t('comp.state.opening') : t('comp.state.open', { time: formatDuration(p.left) });
    else text = t('comp.state.upcoming', { time: formatDuration(Math.ceil(p.left)) });
    clock.textContent = text;
    clock.dataset.state = p.pending ? 'pending' : p.state;
    const info = attemptsInfo(view);
    // Once closed, there is nothing left to play.
    controls.hidden = view.state === 'closed';
    attempts.hidden = view.state === 'closed';
    playBtn.disabled = starting || !(p.state === 'open' && !p.pending && view.state === 'open' && !(info && info.left === 0));
    showRunning(p.state === 'open');
  }

  function showRunning(open) {
    const r = open && view && view.state === 'open' ? running : null;
    playBtn.hidden = !!r;
    resumeBtn.hidden = !r;
    runningLine.hidden = !r;
    if (!r) return;
    resumeBtn.textContent = t('run.resumeAttempt', { n: r.attempt });
    runningLine.textContent = t('run.note', { n: r.attempt, score: r.score, moves: r.move_count });
  }

  async function loadRunning() {
    if (app.net.status === 'idle') return;  // a visitor, an organiser: onReady reads it once connected
    const list = await fetchRunning(app.net);
    if (destroyed) return;
    running = runningIn(list, id);
    if (view) tick();
  }

  function schedule() {
    clearTimeout(pollTimer);
    if (destroyed || !view) return;
    const p = phase(view, fetchedAt, Date.now());
    let delay = null;
    if (view.state === 'closed') {
      // Games still running at the close are ended just after it, and an
      // organiser may disqualify later: the results are read again, often
      // at first, then now and then.
      const since = Date.now() - Date.parse(view.closes_at);
      if (!view.key || !results) delay = misses < 30 ? 2000 : 10000;
      else delay = since < 30000 ? 3000 : 60000;
    } else if (p.pending) {
      delay = misses < 30 ? 1000 : 5000;
    } else if (view.state === 'open') {
      delay = Math.min(LIVE_MS, p.left * 1000 + 200);
    } else {
      delay = Math.min(60000, p.left * 1000 + 200);
    }
    if (delay != null) pollTimer = setTimeout(refresh, Math.max(200, delay));
  }

  async function refresh() {
    if (!validId(id)) { error = 'not_found'; render(); return; }
    let next;
    try {
      next = await api.competition(id, me());
    } catch (err) {
      if (destroyed) return;
      // Gone (or never there): nothing of a view read before stays on show.
      if (err.status === 404) { error = 'not_found'; view = null; render(); return; }
      message.textContent = t('err.generic', { message: err.message || err.code });
      clearTimeout(pollTimer);
      pollTimer = setTimeout(refresh, 5000);
      return;
    }
    if (destroyed) return;
    const prev = view;
    const changed = !prev || prev.state !== next.state || prev.key !== next.key;
    if (!prev || prev.state !== next.state || prev.attempts_used !== next.attempts_used) loadRunning();
    misses = changed ? 0 : misses + 1;
    view = next;
    fetchedAt = Date.now();
    const wasError = error;
    error = null;
    if (manager == null) decideManager();
    try {
      if (view.state === 'open' && !manager) board = await api.compLeaderboard(id, { limit: LIVE_ROWS });
      if (view.state === 'closed' || (view.state === 'open' && manager)) results = await api.compResults(id);
    } catch (err) {
      message.textContent = t('err.generic', { message: err.message || err.code });
    }
    if (destroyed) return;
    if (view.key && view.key !== verifiedKey) {
      verifiedKey = view.key;
      verify = null;
      checkCommitment(view.key, view.commitment).then((v) => {
        if (destroyed || verifiedKey !== view.key) return;
        verify = v;
        renderFairness();
      }).catch(() => { verify = { result: 'unavailable', digest: null }; renderFairness(); });
    }
    // Only what changed is drawn again (the forms keep what is typed).
    if (!prev || wasError) render();
    else {
      section.dataset.state = view.state;
      if (headSig(prev) !== headSig(view)) renderHead();
      if (prev.key !== view.key || prev.commitment !== view.commitment) renderFairness();
      if (currentSig() !== standingsSig) renderStandings();
    }
    schedule();
  }

  debug = () => ({
    id,
    state: view ? view.state : null,
    error,
    commitment: view ? view.commitment : null,
    key: view ? view.key : null,
    verify: verify ? verify.result : null,
    attemptsLeft: view ? view.attempts_left : undefined,
    attemptsUsed: view ? view.attempts_used : undefined,
    leaderboard: board ? board.entries.map((e) => ({ player: e.player, score: e.score, rank: e.rank })) : null,
    results: results ? resultsDigest(results.entries) : null,
    manager,
  });

  const timer = setInterval(tick, 1000);
  const onReady = () => {
    if (view && view.attempts_used == null) refresh();
    else loadRunning();
  };
  app.net.addEventListener('ready', onReady);
  const offLang = onLangChange(render);
  render();
  // Whose the token is first, so that an organiser's first drawing is
  // already the organiser's view.
  checkManager().finally(() => { if (!destroyed) refresh(); });
  return () => {
    destroyed = true;
    debug = null;
    clearInterval(timer);
    clearTimeout(pollTimer);
    app.net.removeEventListener('ready', onReady);
    offLang();
  };
}

// An organiser (a token kept by the Organise page) and a visitor read the
// page without a player name (app.js); Play asks for one.
competitionPage.withoutPlayer = () => Boolean(organiserToken());
competitionPage.forVisitors = () => true;
