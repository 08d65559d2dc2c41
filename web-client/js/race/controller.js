// The player's own game in a race: a GameController that notes when each
// answer arrived (before its animation plays), so that a move is compared
// with the ghost at the time it was played, not when its animation ended.

import { GameController } from '../game.js';

export class RaceController extends GameController {
  constructor(net, ui) {
    super(net, ui);
    this.replyAt = null;  // performance.now() of the answer being played
  }

  async playReply(reply) {
    this.replyAt = performance.now();
    return super.playReply(reply);
  }
}
