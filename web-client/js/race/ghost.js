// The ghost: a chosen entry's replay on its own board, advanced at the
// entry's pace (pace.js) from the moment start() is called (the start of
// the player's own game). Every step is animated from the replay's events
// by the replay viewer's stepper (replay/stepper.js); steps that fall due
// while one animates are queued, so the board never skips one. The score
// at any time of the race comes from the times, not from the animation.

import { BoardView } from '../board.js';
import { t } from '../i18n.js';
import { ReplayStepper } from '../replay/stepper.js';
import { stepTimes, stepsDue, scoreAt } from './pace.js';

const TICK_MS = 100;

export class GhostRunner {
  // replay: GET /api/games/{id}/replay; durationMs: the entry's duration
  // (the even pace of an entry without times); onChange(ghost): after each
  // step on the board.
  constructor(replay, { durationMs = null, onChange = () => {} } = {}) {
    this.replay = replay;
    const { times, paced } = stepTimes(replay.steps, durationMs);
    this.times = times;
    this.paced = paced;
    this.view = new BoardView({});
    // The player's own board keeps testid "board".
    this.view.el.dataset.testid = 'ghost-board';
    this.view.el.setAttribute('aria-label', t('race.ghostBoard'));
    this.stepper = new ReplayStepper(replay, { view: this.view, onStep: () => onChange(this) });
    this.stepper.jump(0);
    this.startedAt = null;
    this.timer = null;
  }

  get started() { return this.startedAt != null; }
  get done() { return this.stepper.done; }
  get finalScore() {
    const n = this.replay.steps.length;
    return n === 0 ? this.replay.start.score : this.replay.steps[n - 1].score;
  }

  // Ms since the start (0 before it).
  elapsed(now = performance.now()) {
    return this.startedAt == null ? 0 : Math.max(0, now - this.startedAt);
  }

  // The ghost's score `ms` after the start, as recorded.
  scoreAt(ms) {
    return scoreAt(this.replay, this.times, ms);
  }

  start(at = performance.now()) {
    if (this.started) return;
    this.startedAt = at;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.tick();
  }

  // Asks the stepper for every step due and not yet on its way.
  tick() {
    const s = this.stepper;
    const due = stepsDue(this.times, this.elapsed());
    let underway = s.step + s.queued + (s.busy ? 1 : 0);
    while (underway < due) {
      s.forward();
      underway += 1;
    }
    if (s.done || due >= this.times.length) this.stopTimer();
  }

  // Shows the ghost's last step at once (the player need not wait for it).
  finish() {
    this.stopTimer();
    if (!this.stepper.busy) this.stepper.jump(this.stepper.length);
    else this.stepper.queued = this.stepper.length;  // drained step by step
  }

  stopTimer() {
    clearInterval(this.timer);
    this.timer = null;
  }

  dispose() {
    this.stopTimer();
    this.stepper.dispose();
  }
}
