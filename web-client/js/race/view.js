// What a race shows beside the two boards: the ghost's score line, who is
// ahead after my last move, the compact record of every move (one mark
// each: ahead, behind or level, with the difference), and the result.
// Only DOM; the figures come from pace.js.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { raceResult } from './pace.js';

const MARKS = { ahead: '▲', behind: '▼', level: '=' };

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

export class RaceView {
  constructor() {
    this.ghostScore = h('p', { class: 'race-ghost-score', testid: 'race-ghost-score' });
    this.lead = h('p', { class: 'race-lead', testid: 'race-lead', 'aria-live': 'polite' });
    this.record = h('ol', { class: 'race-record', testid: 'race-record', 'aria-label': t('race.record') });
    // The record under its heading, shown once there is a move in it.
    this.standing = h('div', { class: 'race-standing', testid: 'race-standing', hidden: true },
      h('h3', { i18n: 'race.record' }), this.record);
    this.result = h('div', { class: 'race-result', testid: 'race-result', hidden: true });
  }

  // ghost: GhostRunner.
  showGhost(ghost) {
    const s = ghost.stepper;
    const moves = ghost.replay.steps.filter((x) => x.move != null).length;
    const made = ghost.replay.steps.slice(0, s.step).filter((x) => x.move != null).length;
    this.ghostScore.textContent = t('race.ghostScore', { score: s.score, i: made, n: moves });
    this.ghostScore.dataset.step = String(s.step);
  }

  // record: pace.js's recordMove list.
  showRecord(record) {
    const last = record[record.length - 1];
    if (!last) {
      this.lead.textContent = t('race.lead.start');
      this.lead.dataset.lead = '';
    } else {
      this.lead.textContent = t(`race.lead.${last.lead}`, { n: Math.abs(last.mine - last.ghost), move: last.move });
      this.lead.dataset.lead = last.lead;
    }
    this.lead.className = `race-lead ${last ? last.lead : ''}`;
    clear(this.record);
    this.standing.hidden = record.length === 0;
    for (const r of record) {
      const text = t('race.record.item', { move: r.move, mine: r.mine, ghost: r.ghost });
      this.record.append(h('li', { class: r.lead, title: text, 'aria-label': text, testid: 'race-record-move',
        dataset: { lead: r.lead, move: String(r.move), mine: String(r.mine), ghost: String(r.ghost), ms: String(Math.round(r.ms)) } },
      h('span', { class: 'mark' }, MARKS[r.lead]), signed(r.mine - r.ghost)));
    }
  }

  // The end of my game: my final score against the ghost's. `actions`:
  // elements (links) offered after it.
  showResult(mine, ghost, actions = []) {
    const r = raceResult(mine, ghost);
    clear(this.result);
    this.result.hidden = false;
    this.result.dataset.winner = r.winner;
    this.result.dataset.margin = String(r.margin);
    this.result.append(
      h('h3', { i18n: 'race.result' }),
      h('p', { class: `race-verdict ${r.winner}`, testid: 'race-verdict' },
        t(`race.result.${r.winner}`, { n: r.margin, mine, ghost })),
      h('div', { class: 'over-actions' }, actions));
  }

  hideResult() {
    this.result.hidden = true;
    clear(this.result);
  }
}
