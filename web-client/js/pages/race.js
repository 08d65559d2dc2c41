// A ghost race (/?view=race&game=ID): the player plays the closed board of
// entry ID as unranked practice (new_game with `competition`: rules.md,
// "Practice on a closed board") while the entry's replay plays beside it at
// its recorded pace, aligned with the start of the player's game
// (race/ghost.js). After each of the player's moves, the page shows who is
// ahead (the player's score against the ghost's at the same elapsed time)
// and keeps a compact record of it (race/view.js); at the end, who won and
// by how much. A reload starts a new race.

import { h, clear, link } from '../dom.js';
import { t } from '../i18n.js';
import { loadingPage } from '../page_life.js';
import { sameMode } from '../modes/same.js';
import { match3Mode } from '../modes/match3.js';
import { hiddenMode } from '../modes/hidden.js';
import { makeGameButtons, makeGameLines, makeStats, showGameButtons, showStats } from '../hud.js';
import { makePeekButton } from '../help.js';
import { mayGiveUpGame } from '../running.js';
import { api } from '../api.js';
import { compUrl } from '../competitions/logic.js';
import { boardName } from '../competitions/views.js';
import { RaceController } from '../race/controller.js';
import { GhostRunner } from '../race/ghost.js';
import { RaceView } from '../race/view.js';
import { recordMove } from '../race/pace.js';
import { raceUrl, raceable } from '../race/links.js';
import { replayUrl } from '../replay/links.js';

let debug = null;
// Test hook (window.__tilecrush.race): the ghost's step, score and hash
// checks, the record, the result.
export function raceDebug() {
  return debug ? debug() : null;
}

export function racePage(root, app, params) {
  const id = String(params.game || '');
  const section = h('section', { class: 'race', testid: 'race-page' });
  root.append(section);
  let entry = null;   // GET /api/games/{id}
  let ghost = null;
  let problem = null; // why there is no race: a function, so it follows the language
  let record = [];    // pace.js's recordMove list
  let result = null;
  let gone = false;

  const panel = new RaceView();
  const stats = makeStats();
  const { preview, message } = makeGameLines();
  const buttons = makeGameButtons();
  const ui = {
    setHud(ctrl) {
      if (!showStats(stats, ctrl)) return;
      showGameButtons(buttons, ctrl);
      peekButton.refresh();
    },
    setMessage(text) { message.textContent = text; },
    setPreview(text) { preview.textContent = text; },
    setBusy(busy) { c.view.el.dataset.busy = String(busy); },
    showOver(ctrl, info) { finish(info ? info.finalScore : ctrl.model.score); },
  };
  const c = new RaceController(app.net, ui);
  c.modeFactories = { same: sameMode, match3: match3Mode, hidden: hiddenMode };
  app.setGame(c);
  const peekButton = makePeekButton(c);
  buttons.hint.addEventListener('click', () => c.mode && c.mode.hint && c.mode.hint());
  buttons.undo.addEventListener('click', () => c.mode && c.mode.undo && c.mode.undo());
  buttons.resign.addEventListener('click', async () => {
    if (await mayGiveUpGame(c)) c.resign();
  });

  c.addEventListener('loaded', (e) => {
    const gv = e.detail;
    // The ghost starts with the player's game; an undo drops the record of
    // the moves it took back.
    if (ghost && !ghost.started && gv.move_count === 0) ghost.start();
    record = record.slice(0, gv.move_count);
    if (!gv.over && result) {
      result = null;
      panel.hideResult();
    }
    panel.showRecord(record);
  });
  c.addEventListener('reply', (e) => {
    const reply = e.detail;
    if (!ghost || reply.move_count === record.length) return;  // a resign is not a move
    const ms = ghost.elapsed(c.replyAt ?? performance.now());
    record = recordMove(record, { moveCount: reply.move_count, ms, mine: reply.score, ghost: ghost.scoreAt(ms) });
    panel.showRecord(record);
  });

  function finish(mine) {
    if (!ghost) return;
    result = { mine, ghost: ghost.finalScore };
    showResult();
  }

  function showResult() {
    if (!result) return;
    const again = h('button', { type: 'button', class: 'primary', testid: 'race-again' }, t('race.again'));
    again.addEventListener('click', () => app.navigate(raceUrl(id), { force: true }));
    const actions = [again];
    if (ghost && !ghost.done) {
      const skip = h('button', { type: 'button', testid: 'race-skip' }, t('race.skip'));
      skip.addEventListener('click', () => { ghost.finish(); skip.remove(); });
      actions.push(skip);
    }
    actions.push(link(replayUrl(id), t('race.replay'),
      { class: 'button', testid: 'race-entry-replay' }));
    if (entry && entry.competition) {
      actions.push(link(compUrl(entry.competition), t('comp.back'), { class: 'button', testid: 'race-competition' }));
    }
    panel.showResult(result.mine, result.ghost, actions);
  }

  debug = () => {
    if (!ghost) return { ready: false, problem: problem ? problem() : null };
    const s = ghost.stepper;
    return {
      ready: true, started: ghost.started, paced: ghost.paced, times: ghost.times,
      ghostStep: s.step, ghostSteps: s.length, ghostBusy: s.busy || s.queued > 0, ghostDone: ghost.done,
      ghostScore: s.score, ghostHash: s.stateHash, ghostHashOk: s.hashOk, ghostFinal: ghost.finalScore,
      record: record.map((r) => ({ ...r })), result: result ? { ...result } : null,
    };
  };

  function render() {
    clear(section);
    const name = entry ? entry.player : '';
    section.append(h('h2', {}, entry ? t('race.title', { player: name }) : t('race.heading')));
    if (problem) {
      section.append(h('p', { class: 'message', testid: 'race-problem' }, problem()),
        id ? h('p', {}, link(replayUrl(id), t('race.replay'))) : null);
      return;
    }
    if (!ghost) { section.append(h('p', {}, t('common.loading'))); return; }
    const board = boardName(entry);
    section.append(
      h('p', { class: 'race-info', testid: 'race-info' },
        entry.competition ? link(compUrl(entry.competition), board) : board,
        ` · ${t('race.entry', { player: name, score: ghost.finalScore })}`),
      h('p', { class: 'note', testid: 'race-pace' }, `${t('race.practice')} ${t(ghost.paced ? 'race.pace.recorded' : 'race.pace.even')}`),
      h('div', { class: 'race-stage' },
        h('div', { class: 'race-me' },
          h('h3', {}, t('race.you')),
          h('div', { class: 'hud' }, Object.values(stats).map((s) => s.box), peekButton.el),
          h('div', { class: 'board-wrap' }, c.view.el), preview, message,
          h('div', { class: 'controls' }, Object.values(buttons))),
        h('div', { class: 'race-ghost', testid: 'race-ghost' },
          h('h3', {}, t('race.ghost', { player: name })),
          panel.ghostScore,
          h('div', { class: 'board-wrap' }, ghost.view.el),
          panel.lead)),
      panel.standing,
      panel.result);
    panel.showGhost(ghost);
    panel.showRecord(record);
    if (c.model) ui.setHud(c);
    showResult();
  }

  async function load() {
    try {
      entry = await api.game(id);
    } catch (err) {
      problem = err.status === 404 ? () => t('race.notFound') : () => t('err.generic', { message: err.message || err.code });
    }
    if (!problem && !raceable(entry)) problem = () => t('race.notRaceable');
    let replay = null;
    if (!problem) {
      try {
        replay = await api.replay(id);
      } catch (err) {
        problem = () => t('err.generic', { message: err.message || err.code });
      }
    }
    if (gone) return;
    if (replay) {
      ghost = new GhostRunner(replay, { durationMs: entry.duration_ms, onChange: (g) => panel.showGhost(g) });
    }
    render();
    if (!ghost) return;
    c.start({ competition: entry.competition }).catch((err) => {
      ui.setMessage(t('err.generic', { message: err.message || err.code }));
    });
  }

  return loadingPage(render, load, () => {
    gone = true;
    debug = null;
    if (ghost) ghost.dispose();
    c.destroy();
    app.setGame(null);
  });
}
