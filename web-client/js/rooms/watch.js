// The spectator's screen: one small board per player, animated from the
// room_events the Follower has applied. Each board animates on its own
// queue, so a fast player never holds up another board; the Follower's
// models are always current, the pictures catch up.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { BoardView } from '../board.js';
import { animateEvent } from '../animate.js';
import { modelFromView } from '../model.js';

export class WatchView {
  constructor(follower) {
    this.follower = follower;
    this.cards = new Map();   // name -> {el, view, score, moves, status, chain}
    this.pending = 0;
    this.idleWaiters = [];
    this.el = h('div', { class: 'room-watch', testid: 'room-watch' });
  }

  // Rebuilds every card from the views the follower was reset with.
  reset() {
    this.cards.clear();
    this.el.replaceChildren();
    for (const [name, entry] of this.follower.boards) this.addCard(name, entry.view);
  }

  addCard(name, gameView) {
    const view = new BoardView({});
    view.el.dataset.player = name;
    view.setup(modelFromView(gameView));
    const card = {
      view,
      score: h('span', { class: 'value', testid: 'watch-score' }),
      moves: h('span', { class: 'value', testid: 'watch-moves' }),
      status: h('span', { class: 'note', testid: 'watch-status' }),
      chain: Promise.resolve(),
    };
    card.el = h('div', { class: 'card watch-card', testid: 'watch-card', dataset: { player: name } },
      h('div', { class: 'watch-head' }, h('strong', { testid: 'watch-name' }, name),
        h('span', {}, h('span', { class: 'label', i18n: 'hud.score' }), ' ', card.score),
        h('span', {}, h('span', { class: 'label', i18n: 'hud.moves' }), ' ', card.moves), card.status),
      h('div', { class: 'board-wrap' }, view.el));
    this.cards.set(name, card);
    this.el.append(card.el);
    this.updateStats(name);
    return card;
  }

  updateStats(name) {
    const card = this.cards.get(name);
    const entry = this.follower.boards.get(name);
    if (!card || !entry) return;
    const m = entry.model;
    card.score.textContent = String(m.score);
    card.moves.textContent = String(m.moveCount);
    card.status.textContent = m.over ? t('rooms.status.over') : '';
    card.el.dataset.over = String(m.over);
  }

  queue(name, fn) {
    const card = this.cards.get(name);
    if (!card) return;
    this.pending += 1;
    card.chain = card.chain.then(fn).catch(() => {}).finally(() => {
      this.pending -= 1;
      if (this.pending === 0) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  // A move the follower has just applied: animate its events.
  played(name, events) {
    this.updateStats(name);
    const card = this.cards.get(name);
    if (!card) return;
    this.queue(name, async () => {
      const ctx = {};
      for (const ev of events) await animateEvent(card.view, ev, ctx);
    });
  }

  // A whole new view of one board (undo): redraw it once earlier motion is done.
  replaced(name, gameView) {
    if (!this.cards.has(name)) {
      this.addCard(name, gameView);
      return;
    }
    this.updateStats(name);
    const snapshot = modelFromView(gameView);
    this.queue(name, async () => this.cards.get(name).view.setup(snapshot));
  }

  refresh() {
    for (const name of this.cards.keys()) this.updateStats(name);
  }

  idle() {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
