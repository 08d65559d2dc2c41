// One replay (GET /api/games/{id}/replay) on one board: the steps applied
// so far, a step forward animated with the events of live play
// (animate.js), a jump to any step rebuilt from the start without
// animation, and after every step the check that the client's own
// state_hash equals the step's (a mismatch is reported, never hidden).
// Shared by the replay page (pages/replay.js) and the ghost of a race
// (race/ghost.js).

import { BoardView } from '../board.js';
import { animateEvent } from '../animate.js';
import { modelFromView, applyEvent, candidateHashes } from '../model.js';

// Where step `step` of a replay's `steps` stands in moves: the moves made
// up to it, the game's moves in all (a step with a null move, the end of a
// resigned or closed game, is none), and whether it is that end.
export function movesAt(steps, step) {
  const isMove = (s) => s.move != null;
  return {
    made: steps.slice(0, step).filter(isMove).length,
    total: steps.filter(isMove).length,
    end: step > 0 && step <= steps.length && !isMove(steps[step - 1]),
  };
}

export class ReplayStepper {
  // replay: the /replay answer. onStep(stepper): after every change of step.
  // drain(): whether a step asked for while another animated is played
  // after it (the replay page drops them while it autoplays).
  constructor(replay, { view = new BoardView({}), onStep = () => {}, drain = () => true } = {}) {
    this.replay = replay;
    this.view = view;
    this.onStep = onStep;
    this.drain = drain;
    this.step = 0;          // steps applied to the board on screen
    this.model = null;
    this.hashOk = true;
    this.busy = false;      // a step is animating
    this.queued = 0;
    this.peeked = null;     // a cell a peek revealed, hidden again at the next step
    this.gone = false;
  }

  get steps() { return this.replay.steps; }
  get length() { return this.replay.steps.length; }
  get done() { return this.step >= this.length; }
  // The view after `n` steps: the start, or step n's figures.
  stepAt(n) { return n === 0 ? this.replay.start : this.replay.steps[n - 1]; }
  get score() { return this.model ? this.model.score : null; }
  get stateHash() { return this.stepAt(this.step).state_hash; }

  dispose() { this.gone = true; }

  checkHash() {
    this.hashOk = candidateHashes(this.model).includes(this.stateHash);
  }

  // The board after `n` steps, rebuilt from the start without animation.
  jump(n) {
    this.queued = 0;
    const target = Math.max(0, Math.min(n, this.length));
    this.model = modelFromView(this.replay.start);
    for (let i = 0; i < target; i++) {
      for (const ev of this.steps[i].events) applyEvent(this.model, ev);
      this.model.moveCount = this.steps[i].move_count;
    }
    if (target > 0) this.model.score = this.steps[target - 1].score;
    this.view.setup(this.model);
    this.peeked = null;
    this.step = target;
    this.checkHash();
    this.onStep(this);
  }

  // One step forward, animated like live play. A step asked for while one
  // is animating is queued, not lost.
  async forward() {
    if (this.busy) {
      this.queued += 1;
      return;
    }
    if (this.done || this.gone) return;
    this.busy = true;
    try {
      if (this.peeked) {
        this.view.conceal(this.peeked[0], this.peeked[1]);
        this.peeked = null;
      }
      const s = this.steps[this.step];
      const ctx = {};
      for (const ev of s.events) {
        applyEvent(this.model, ev);
        if (ev.kind === 'peek') {
          this.view.reveal(ev.x, ev.y, ev.color);
          this.peeked = [ev.x, ev.y];
        }
        await animateEvent(this.view, ev, ctx);
        if (this.gone) return;
      }
      this.model.moveCount = s.move_count;
      this.model.score = s.score;
      this.step += 1;
      this.checkHash();
      this.onStep(this);
    } finally {
      this.busy = false;
    }
    if (this.queued > 0 && !this.gone && this.drain()) {
      this.queued -= 1;
      await this.forward();
    }
  }
}
