// A player's own board in a room: the same GameController and input modes
// as the play page (moves are sent exactly as there and the server's events
// applied and checked the same way), with a smaller HUD and, at the end of
// the player's own game, a line saying the others are still playing.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { GameController } from '../game.js';
import { sameMode } from '../modes/same.js';
import { match3Mode } from '../modes/match3.js';
import { hiddenMode } from '../modes/hidden.js';
import { makeGameButtons, makeGameLines, makeStats, showGameButtons, showStats } from '../hud.js';
import { makeHowTo, makePeekButton } from '../help.js';
import { mayGiveUpGame } from '../running.js';

export class RaceView {
  constructor(net) {
    this.stats = makeStats();
    this.buttons = makeGameButtons();
    const lines = makeGameLines();
    this.preview = lines.preview;
    this.message = lines.message;
    this.done = h('div', { class: 'over-panel room-done', testid: 'gameover', hidden: true });
    this.boardWrap = h('div', { class: 'board-wrap' });
    // The others' live scores over the board (shown on narrow screens,
    // where the players table sits below the board).
    this.rivals = h('div', { class: 'rivals', testid: 'room-rivals' });
    this.finished = false;
    this.overInfo = null;
    const stats = this.stats;
    const buttons = this.buttons;
    const self = this;
    const ui = {
      setHud(c) {
        if (!showStats(stats, c)) return;
        const m = c.model;
        showGameButtons(buttons, c);
        self.boardWrap.dataset.over = String(m.over);
        // A player invited to a room meets the mode's rules (and, in hidden
        // colours, the price of a peek) here as on the play page.
        self.howTo.update(c);
        if (self.peekButton) self.peekButton.refresh();
      },
      setMessage(text) { self.message.textContent = text; },
      setPreview(text) { self.preview.textContent = text; },
      setBusy(busy) { self.ctrl.view.el.dataset.busy = String(busy); },
      showOver(ctrl, info) {
        self.overInfo = info;
        self.renderDone();
      },
    };
    this.ctrl = new GameController(net, ui);
    this.ctrl.modeFactories = { same: sameMode, match3: match3Mode, hidden: hiddenMode };
    this.ctrl.addEventListener('loaded', (e) => { if (!e.detail.over) this.done.hidden = true; });
    this.boardWrap.append(this.ctrl.view.el);
    this.peekButton = makePeekButton(this.ctrl);
    this.howTo = makeHowTo();
    buttons.hint.addEventListener('click', () => this.ctrl.mode && this.ctrl.mode.hint && this.ctrl.mode.hint());
    buttons.undo.addEventListener('click', () => this.ctrl.mode && this.ctrl.mode.undo && this.ctrl.mode.undo());
    buttons.resign.addEventListener('click', async () => {
      if (await mayGiveUpGame(this.ctrl)) this.ctrl.resign();
    });
    this.el = h('div', { class: 'room-race', testid: 'room-race' },
      h('div', { class: 'hud' }, Object.values(stats).map((s) => s.box)), this.rivals, this.howTo.el,
      h('div', { class: 'board-tools' }, this.peekButton.el), this.boardWrap, this.preview, this.message,
      h('div', { class: 'controls' }, Object.values(buttons)), this.done);
  }

  get gameId() { return this.ctrl.model ? this.ctrl.model.gameId : null; }

  // Shows the player's game (room_started, or `game` in a join answer),
  // queued behind any move still being animated.
  load(gameView) {
    return this.ctrl.enqueue(async () => this.ctrl.load(gameView));
  }

  // players: the scoreboard order, without the player themselves.
  setRivals(players) {
    this.rivals.replaceChildren(...players.map((p) => h('span', {
      class: 'chip', dataset: { player: p.name, over: String(!!p.over) },
    }, h('span', { class: 'name' }, p.name), ' ', h('strong', {}, String(p.score)))));
  }

  // Brings the whole board on screen (the race has just started).
  reveal() {
    const el = this.ctrl.view.el;
    if (el.isConnected && el.scrollIntoView) el.scrollIntoView({ block: 'nearest' });
  }

  // The room is over: the waiting line becomes final.
  setFinished(finished) {
    this.finished = finished;
    if (this.ctrl.model && this.ctrl.model.over) this.renderDone();
  }

  renderDone() {
    const m = this.ctrl.model;
    if (!m) return;
    const info = this.overInfo;
    this.done.hidden = false;
    this.done.replaceChildren(...[
      h('h2', {}, t('over.title')),
      info && info.reason ? h('p', { testid: 'gameover-reason' }, t(`over.${info.reason}`)) : null,
      info && info.bonus ? h('p', { testid: 'gameover-bonus' }, `${t('over.bonus')}: +${info.bonus}`) : null,
      h('p', { class: 'final' }, `${t('over.final')}: `,
        h('strong', { testid: 'final-score' }, String(info ? info.finalScore : m.score))),
      this.finished ? null : h('p', { class: 'note', testid: 'room-waiting' }, t('rooms.waitOthers')),
    ].filter(Boolean));
  }

  refresh() {
    if (this.ctrl.model) this.ctrl.ui.setHud(this.ctrl);
    if (!this.done.hidden) this.renderDone();
  }

  destroy() {
    this.ctrl.destroy();
  }
}
