// The play page: HUD, board, buttons, messages and the game-over panel
// around one GameController. A competition attempt (the daily included)
// has its own address (?competition=ID&game=GAME: a reload resumes it and
// never starts another attempt), a line with the competition and its
// countdown, and links back to the competition instead of a seed to share.
// When the competition closes during the game, the server ends it
// (game_over, reason closed); the page also asks for the game again just
// after the close, in case that push was missed. A running counted attempt
// is the player's until the close (running.js): opening the daily or the
// competition again resumes it, and leaving it, "New board" and "Give up"
// ask first.

import { h, clear, link } from '../dom.js';
import { t, onLangChange, formatDuration } from '../i18n.js';
import { GameController } from '../game.js';
import { sameMode } from '../modes/same.js';
import { match3Mode } from '../modes/match3.js';
import { hiddenMode } from '../modes/hidden.js';
import { makeGameButtons, makeGameLines, makeStats, showGameButtons, showStats } from '../hud.js';
import { makeHowTo, makePeekButton } from '../help.js';
import { boardUrl, validLabel } from '../presets.js';
import { notFoundCard } from './not_found.js';
import { refusalText } from '../refusals.js';
import { keepGame, keptGame } from '../casual.js';
import { identity } from '../identity.js';
import { api } from '../api.js';
import { attemptUrl, compLeaderboardUrl, compUrl, dailyUrl, phase } from '../competitions/logic.js';
import {
  confirmGiveUp, confirmLeave, fetchRunning, guardLeaving, isRunningAttempt, mayGiveUpGame, runningDaily, runningIn,
} from '../running.js';
import { standingSection } from '../standing/standing.js';
import { compName } from '../competitions/views.js';
import { isClosedPractice } from '../archive/logic.js';
import { copyLinkButton } from '../clipboard.js';

// What the address names and the server has not (a game id nobody has, or
// another player's game; a seed it refuses): the not-found card in place
// of an empty board, with a new board of the same kind (or the
// competition) and the home page as ways on. Returns its cleanup.
function missingPage(root, params, kind, other = false) {
  document.body.dataset.page = 'notFound';
  const next = params.competition
    ? link(compUrl(params.competition), null, { i18n: 'comp.back', testid: 'not-found-competition' })
    : link(boardUrl(params.mode, params.preset), '', { testid: 'not-found-new-board' });
  const label = () => {
    if (params.competition) return;
    next.textContent = t('notFound.newBoard', { board: `${t(`mode.${params.mode}`)} · ${t(`preset.${params.preset}`)}` });
  };
  label();
  root.replaceChildren(notFoundCard({ title: `notFound.${kind}.title`,
    note: other ? 'notFound.game.other' : `notFound.${kind}.note`, more: [next] }));
  return onLangChange(label);
}

// A seed or game id the server would refuse (protocol.md, "Fields": over
// 64 characters, a control character) is not asked for at all.
const refusedLink = (p) => (p.seed ? (validLabel(p.seed) ? null : 'seed')
  : p.game !== undefined && !validLabel(p.game) ? 'game' : null);

export function playPage(root, app, params) {
  const refused = refusedLink(params);
  if (refused) return missingPage(root, params, refused);
  const stats = makeStats();
  const title = h('div', { class: 'game-title', testid: 'game-title' });
  const seedLine = h('div', { class: 'seed-line', testid: 'seed' });
  const compLine = h('div', { class: 'comp-line', testid: 'play-competition', hidden: true });
  const { preview, message } = makeGameLines();
  const buttons = {
    ...makeGameButtons(),
    fresh: h('button', { type: 'button', testid: 'btn-new', i18n: 'btn.new' }),
  };
  const overPanel = h('div', { class: 'over-panel', testid: 'gameover', hidden: true });
  const hud = h('div', { class: 'hud' }, Object.values(stats).map((s) => s.box));
  const boardWrap = h('div', { class: 'board-wrap' });
  const controls = h('div', { class: 'controls' }, Object.values(buttons));
  const howTo = makeHowTo();

  let lastOver = null;
  let comp = null;          // the competition's view, for a competition game
  let compFetchedAt = 0;
  let compTimer = null;
  let closeChecks = 0;
  let gone = false;
  // The score after each move seen on this page (share.js's emoji strip);
  // null when the game was resumed midway, so the strip is never partial.
  let trail = null;
  let standing = null;
  const compId = () => (c.gameView && c.gameView.competition) || params.competition || null;
  const isDaily = () => !!((comp && comp.daily) || params.daily);

  const ui = {
    setHud(c) {
      if (!showStats(stats, c)) return;
      const m = c.model;
      const gv = c.gameView;
      title.textContent = `${t(`mode.${m.mode}`)} · ${gv.preset ? t(`preset.${gv.preset}`) : t('preset.custom')}`;
      const attempt = gv.competition && gv.attempt != null ? ` · ${t('comp.attempt', { n: gv.attempt })}` : '';
      seedLine.textContent = `${t('hud.seed')}: ${gv.seed ?? '-'}${attempt} · ${gv.ranked ? t('hud.ranked') : t('hud.practice')}`;
      buttons.fresh.hidden = !!gv.competition && !isDaily();
      showGameButtons(buttons, c);
      boardWrap.dataset.over = String(m.over);
      howTo.update(c);
      peekButton.refresh();
    },
    setMessage(text) { message.textContent = text; },
    setPreview(text) { preview.textContent = text; },
    setBusy(busy) { c.view.el.dataset.busy = String(busy); },
    showOver(ctrl, info) {
      lastOver = info;
      renderOver(ctrl, info);
    },
  };

  const c = new GameController(app.net, ui);
  c.modeFactories = { same: sameMode, match3: match3Mode, hidden: hiddenMode };
  app.setGame(c);
  boardWrap.append(c.view.el);
  const peekButton = makePeekButton(c);
  hud.append(peekButton.el);

  function renderOver(ctrl, info) {
    const gv = ctrl.gameView;
    const m = ctrl.model;
    clear(overPanel);
    if (standing) standing.dispose();
    standing = null;
    overPanel.hidden = false;
    const inComp = !!gv.competition;
    const shareHref = inComp ? new URL(compUrl(gv.competition), location.origin).href
      : gv.preset ? new URL(boardUrl(gv.mode, gv.preset, gv.seed), location.origin).href : null;
    const rows = [
      h('h2', { i18n: 'over.title' }),
      info && info.reason ? h('p', { testid: 'gameover-reason' }, t(`over.${info.reason}`)) : null,
      info && info.bonus ? h('p', { testid: 'gameover-bonus' }, `${t('over.bonus')}: +${info.bonus}`) : null,
      h('p', { class: 'final' }, `${t('over.final')}: `,
        h('strong', { testid: 'final-score' }, String(info ? info.finalScore : m.score))),
    ];
    if (gv.preset && app.net.player) {
      const name = app.net.player.name;
      standing = standingSection(gv, info, { trail, peeks: m.mode === 'hidden' ? m.peeks : null },
        name, app.net.identity ? app.net.identity.tokenFor(name) : null);
      rows.push(standing.el);
    }
    if (shareHref) {
      const input = h('input', { readonly: true, value: shareHref, testid: 'share-link', 'aria-label': t('over.share') });
      // "Link copied" only when it was; else the link is selected in its field.
      const copy = copyLinkButton(input, 'btn-share');
      rows.push(h('div', { class: 'share' }, h('label', {}, t(inComp ? 'comp.share' : 'over.share')), input,
        copy.button, copy.status));
    }
    if (inComp) {
      rows.push(h('div', { class: 'over-actions' },
        link(compUrl(gv.competition), t('comp.back'), { class: 'button primary', testid: 'over-competition' }),
        isDaily() ? link(dailyUrl(gv.mode, gv.preset), t(practiceNext(gv) ? 'btn.againPractice' : 'btn.again'),
          { class: 'button', testid: 'btn-again' }) : null,
        link(compLeaderboardUrl(gv.competition), t('over.leaderboard'), { class: 'button', testid: 'link-leaderboard' })));
    } else if (shareHref) {
      rows.push(h('div', { class: 'over-actions' },
        link(boardUrl(gv.mode, gv.preset, gv.seed), t('btn.again'), { class: 'button', testid: 'btn-again' }),
        link(`/?view=leaderboard&${new URLSearchParams({ mode: gv.mode, preset: gv.preset, seed: gv.seed })}`,
          t('over.leaderboard'), { class: 'button', testid: 'link-leaderboard' })));
    }
    overPanel.append(...rows.filter(Boolean));
    if (overPanel.scrollIntoView) overPanel.scrollIntoView({ block: 'nearest' });
    // Give up (now disabled) or the last move's button had the focus: it
    // goes on to the panel's first way on, not back to the page's top.
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused.disabled) {
      const next = overPanel.querySelector('.over-actions a, .over-actions button')
        || overPanel.querySelector('button');
      if (next) next.focus({ preventScroll: true });
    }
  }

  // Whether the daily's next game is unranked practice: this one was its
  // last counted attempt (the daily's `attempts`), or practice already.
  function practiceNext(gv) {
    if (gv.attempt == null) return true;
    return !!(comp && comp.id === gv.competition && comp.attempts != null && gv.attempt >= comp.attempts);
  }

  buttons.hint.addEventListener('click', () => c.mode && c.mode.hint && c.mode.hint());
  buttons.undo.addEventListener('click', () => {
    overPanel.hidden = true;
    if (c.mode && c.mode.undo) c.mode.undo();
  });
  // A running competition attempt is not given up, nor left, without asking.
  const attemptRunning = () => isRunningAttempt(c.gameView, c.model && c.model.over);
  const unguard = guardLeaving(app, attemptRunning, () => (c.gameView ? attemptUrl(c.gameView) : null));
  // Any other game is asked about too once it has moves: Give up sits
  // beside Hint and Undo, and one stray tap would end a long game.
  buttons.resign.addEventListener('click', async () => {
    if (attemptRunning()) {
      if (!(await confirmGiveUp())) return;
    } else if (!(await mayGiveUpGame(c))) {
      return;
    }
    c.resign();
  });
  buttons.fresh.addEventListener('click', async () => {
    if (!c.gameView) return;
    if (attemptRunning() && !(await confirmLeave())) return;
    if (gone || !c.gameView) return;
    app.navigate(boardUrl(c.gameView.mode, c.gameView.preset || params.preset || ''), { force: true, confirmed: true });
  });

  // An ended game is not resumed from its board's address.
  c.addEventListener('over', () => {
    if (c.gameView) keepGame(app.net.player && app.net.player.name, { ...c.gameView, over: true });
  });
  c.addEventListener('reply', (e) => {
    const reply = e.detail;
    // A resign answers with the same move count: it is not a move.
    if (trail && reply.move_count === trail.length + 1) trail.push(reply.score);
  });

  c.addEventListener('loaded', (e) => {
    // A game answered after the page was left is not this page's to show
    // (its address must not replace the page now on screen).
    if (gone) return;
    const gv = e.detail;
    if (gv.move_count === 0) trail = [];
    else if (trail && trail.length >= gv.move_count) trail = trail.slice(0, gv.move_count);  // an undo
    else trail = null;
    if (!gv.over) overPanel.hidden = true;
    keepGame(app.net.player && app.net.player.name, gv);
    if (gv.competition) {
      // A competition attempt is resumed from its address, never restarted.
      if (params.game !== gv.game_id) {
        params.game = gv.game_id;
        history.replaceState(null, '', attemptUrl(gv));
      }
      if (!comp || comp.id !== gv.competition) loadCompetition(gv.competition);
    } else if (gv.preset && gv.seed && params.seed !== gv.seed) {
      // Make the address shareable (and resumable) once the server picked a seed.
      params.seed = gv.seed;
      history.replaceState(null, '', boardUrl(gv.mode, gv.preset, gv.seed));
    }
  });

  async function loadCompetition(id) {
    try {
      comp = await api.competition(id);
      compFetchedAt = Date.now();
    } catch {
      comp = null;
    }
    if (gone) return;
    tickCompetition();
    clearInterval(compTimer);
    compTimer = setInterval(tickCompetition, 1000);
    ui.setHud(c);
  }

  function tickCompetition() {
    const id = compId();
    compLine.hidden = !id;
    if (!id) return;
    clear(compLine);
    const name = comp ? compName(comp) : id;
    let when = '';
    if (isClosedPractice(c.gameView, comp)) {
      // Practice on a closed board (the Archive's Practice): nothing ends at
      // a close, nothing counts.
      compLine.dataset.practice = 'closed';
      when = t('archive.practiceLine');
    } else if (comp) {
      const p = phase(comp, compFetchedAt, Date.now());
      if (p.state === 'open' && !p.pending) when = t('comp.closesIn', { time: formatDuration(p.left) });
      else if (p.state === 'closed') {
        when = t('comp.state.closed');
        checkClosed();
      }
    }
    compLine.append(link(compUrl(id), name, { testid: 'play-competition-link' }), when ? ` · ${when}` : '');
  }

  // After the close a running attempt is over (reason closed). Normally the
  // server's push says so; otherwise the game is asked for again.
  function checkClosed() {
    if (!c.model || c.model.over || c.busy || closeChecks >= 6) return;
    closeChecks += 1;
    setTimeout(() => {
      if (gone || !c.model || c.model.over) return;
      c.enqueue(() => c.resume('competition closed')).then(() => {
        if (c.model && c.model.over && !(lastOver && lastOver.reason)) {
          ui.showOver(c, { reason: 'closed', finalScore: c.model.score });
        }
      });
    }, 1500 * closeChecks);
  }

  root.append(
    h('section', { class: 'play', testid: 'play-page' },
      h('div', { class: 'play-head' }, title, seedLine, compLine),
      hud, howTo.el, boardWrap, preview, message, controls, overPanel));

  const offLang = onLangChange(() => {
    ui.setHud(c);
    tickCompetition();
    if (!overPanel.hidden && c.model) renderOver(c, lastOver);
  });

  const fields = { mode: params.mode, preset: params.preset };
  // daily: true and a seed together are refused (protocol/README.md).
  if (params.daily && !params.seed) fields.daily = true;
  else if (params.seed) fields.seed = params.seed;
  // A reload, Back after New board, or the address in another tab resumes
  // this player's unfinished game on this board instead of dealing it again
  // (casual.js).
  const kept = params.seed && !params.fresh
    ? keptGame(identity.get()?.name, params.mode, params.preset, params.seed) : null;
  // A competition's running attempt (started here, in another tab or on
  // another device) is resumed, never left for another attempt or practice.
  const resumeRunningOr = async (find, start) => {
    const found = find(await fetchRunning(app.net));
    if (gone) return null;
    return found ? c.resumeGame(found.game_id) : start();
  };
  let begin;
  if (params.game) begin = c.resumeGame(params.game);
  else if (params.competition) {
    begin = resumeRunningOr((list) => runningIn(list, params.competition),
      () => c.start({ competition: params.competition }));
  } else if (kept) {
    begin = c.resumeGame(kept).catch(() => null).then(() => {
      if (!c.model || c.model.over) return c.start(fields);
      return null;
    });
  } else if (fields.daily) {
    begin = resumeRunningOr((list) => runningDaily(list, params.mode, params.preset), () => c.start(fields));
  } else begin = c.start(fields);
  begin.catch((err) => {
    if (params.competition && !params.game && (err.code === 'not_allowed' || err.code === 'not_found')) {
      // No attempt can start here (not open yet, closed, attempts used, or
      // no such competition): a board with nothing on it would be no use,
      // so the competition's own page says where it stands instead.
      if (!gone) app.navigate(compUrl(params.competition), { replace: true, force: true, confirmed: true });
      return;
    }
    if (gone) return;
    // A game id nobody has, or another player's game; a seed the server
    // refused: no such game, not an empty board with an error under it.
    if (params.game && (err.code === 'not_found' || err.code === 'unauthorized')) {
      offMissing = missingPage(root, params, 'game', err.code === 'unauthorized');
      return;
    }
    if (fields.seed && !params.game && err.code === 'bad_request') {
      offMissing = missingPage(root, params, 'seed');
      return;
    }
    // Known codes in the page's language; the server's words only for others.
    const { key, vars } = refusalText(err);
    if (params.competition) {
      tickCompetition();
      ui.setMessage(err.code === 'not_allowed' ? t('comp.err.notAllowed', { message: err.message || '' })
        : err.code === 'not_found' ? t('comp.err.notFound') : t(key, vars));
    } else ui.setMessage(t(key, vars));
  });
  let offMissing = null;

  return () => {
    gone = true;
    if (offMissing) offMissing();
    unguard();
    if (standing) standing.dispose();
    offLang();
    clearInterval(compTimer);
    c.destroy();
    app.setGame(null);
  };
}

// A link refused before it is asked needs no player (no name dialog for it).
playPage.withoutPlayer = (p) => !!refusedLink(p);
