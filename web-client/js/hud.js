// The game HUD shared by the play page and a room's race view: the stat
// boxes (score, moves, moves left, peeks, timer) and their update from a
// GameController.

import { h } from './dom.js';
import { formatDuration } from './i18n.js';

function stat(labelKey, testid) {
  const value = h('span', { class: 'value', testid });
  const box = h('div', { class: 'stat', dataset: { stat: testid } },
    h('span', { class: 'label', i18n: labelKey }), value);
  return { box, value };
}

export function makeStats() {
  return {
    score: stat('hud.score', 'score'),
    moves: stat('hud.moves', 'moves'),
    movesLeft: stat('hud.movesLeft', 'moves-left'),
    peeks: stat('hud.peeks', 'peeks'),
    time: stat('hud.time', 'timer'),
  };
}

// Shows the controller's model in the boxes; false when there is no game yet.
export function showStats(stats, c) {
  const m = c.model;
  if (!m) return false;
  stats.score.value.textContent = String(m.score);
  stats.moves.value.textContent = String(m.moveCount);
  const left = c.movesLeft();
  stats.movesLeft.box.hidden = left == null;
  stats.movesLeft.value.textContent = left == null ? '' : String(left);
  stats.peeks.box.hidden = m.mode !== 'hidden';
  stats.peeks.value.textContent = String(m.peeks);
  stats.time.box.hidden = m.mode !== 'hidden';
  if (m.mode === 'hidden' && c.mode && c.mode.elapsedMs) {
    stats.time.value.textContent = formatDuration(c.mode.elapsedMs() / 1000);
  }
  return true;
}
