// The player's running competition attempts (protocol.md, "Running
// attempts"): the server lists them with the session (welcome.running) and
// on request (`running`), so that an attempt survives a closed tab, a
// browser restart and a change of device. Pages ask afresh each time they
// show them: the list changes as attempts start and end, here or elsewhere.

import { t } from './i18n.js';
import { confirmDialog } from './confirm.js';

// The list now; on a failure (an older server, no connection) the one that
// came with the session, or an empty one.
export async function fetchRunning(net) {
  try {
    const reply = await net.request('running');
    if (Array.isArray(reply.running)) return reply.running;
  } catch { /* below */ }
  return Array.isArray(net.running) ? net.running : [];
}

// The running attempt in this competition (the latest started), or null.
export function runningIn(list, competition) {
  return (list || []).find((g) => g.competition === competition) || null;
}

// The running attempt on today's daily board of a mode and preset, or null.
// Only open competitions are listed, and one daily per board is open at a
// time, so its id (daily-YYYY-MM-DD-<mode>-<preset>) needs no date.
export function runningDaily(list, mode, preset) {
  const suffix = `-${mode}-${preset}`;
  return (list || []).find((g) => g.competition.startsWith('daily-') && g.competition.endsWith(suffix)
    && g.mode === mode && g.preset === preset) || null;
}

// Whether a GameView is a counted competition attempt still running: what
// leaving, a new board and giving up ask about first.
export function isRunningAttempt(gameView, over) {
  return !!(gameView && gameView.competition && gameView.attempt != null && !over && !gameView.over);
}

// The confirmations of a running attempt, in the site's style.
export function confirmLeave() {
  return confirmDialog({ title: t('run.leave.title'), text: t('run.leave.text'),
    ok: t('run.leave.ok'), cancel: t('run.stay') });
}

export function confirmGiveUp() {
  return confirmDialog({ title: t('run.giveUp.title'), text: t('run.giveUp.text'),
    ok: t('run.giveUp.ok'), cancel: t('run.stay'), danger: true });
}

// Give up on any other game (the play page, a race) once it has moves asks
// first: one stray tap beside Hint and Undo would end it. A ranked game's
// question says where its score goes. Resolves true where the game may be
// given up (no game, a game over or without moves, or the player said so).
export async function mayGiveUpGame(ctrl) {
  const m = ctrl.model;
  if (!m || m.over || m.moveCount === 0) return true;
  const ranked = Boolean(ctrl.gameView && ctrl.gameView.ranked);
  return confirmDialog({ title: t('giveUp.title'), text: t(ranked ? 'giveUp.textRanked' : 'giveUp.text', { score: m.score }),
    ok: t('run.giveUp.ok'), cancel: t('run.stay'), danger: true });
}

// While running() is true, leaving the page asks first: an in-app
// navigation (app.setLeaveGuard) with confirmLeave(), closing or reloading
// the tab with the browser's own beforeunload question (its text cannot be
// chosen). here() is the page's address, where the browser's back button
// returns to when the player stays. Returns the function that takes both off.
export function guardLeaving(app, running, here = null) {
  const onBeforeUnload = (e) => {
    if (!running()) return;
    e.preventDefault();
    e.returnValue = '';
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  if (app.setLeaveGuard) app.setLeaveGuard(() => (running() ? confirmLeave() : null), here);
  return () => {
    window.removeEventListener('beforeunload', onBeforeUnload);
    if (app.setLeaveGuard) app.setLeaveGuard(null);
  };
}
