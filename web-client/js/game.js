// One game on screen: owns the model, the board view and the request queue.
//
// Every state-changing request goes through one queue, so replies are
// applied (and animated) in the order they were sent. After every reply the
// client hashes its own board (protocol.md state_hash) and compares it with
// the server's; a mismatch is logged and repaired with `resume`.

import { modelFromView, applyEvent, candidateHashes } from './model.js';
import { BoardView } from './board.js';
import { animateEvent } from './animate.js';
import { t, onLangChange } from './i18n.js';
import { refusalText } from './refusals.js';
import { describeReply } from './announce.js';

export class GameController extends EventTarget {
  // ui: {setHud(ctrl), setMessage(text), showOver(ctrl, info), setPreview(text)}
  constructor(net, ui) {
    super();
    this.net = net;
    this.ui = ui;
    this.view = new BoardView({
      onHover: (x, y, p) => this.mode && this.mode.onHover && this.mode.onHover(x, y, p),
      onTap: (x, y, p) => this.mode && this.mode.onTap && this.mode.onTap(x, y, p),
      onSwipe: (x, y, dx, dy) => this.mode && this.mode.onSwipe && this.mode.onSwipe(x, y, dx, dy),
      // Keyboard (board.js): Enter/Space, cursor moves, Escape, P.
      onActivate: (x, y) => this.mode && this.mode.onActivate && this.mode.onActivate(x, y),
      onCursor: (x, y) => this.mode && this.mode.onCursor && this.mode.onCursor(x, y),
      onCancel: () => this.mode && this.mode.onCancel && this.mode.onCancel(),
      onPeekKey: (x, y) => this.mode && this.mode.onPeekKey && this.mode.onPeekKey(x, y),
    });
    this.model = null;
    this.gameView = null;
    this.mode = null;
    this.modeFactories = {};
    this.chain = Promise.resolve();
    this.pendingCount = 0;
    this.idleWaiters = [];
    this.lastStateHash = null;
    this.lastComputedHash = null;
    this.lastReply = null;
    this.hashMismatches = 0;
    this.resyncs = 0;
    this.moveBudget = null;
    this.generation = 0;
    this.hiddenSelectedShown = null;
    this.onReady = (e) => {
      if (e.detail.reconnect && this.model) this.enqueue(() => this.resume('reconnect'));
    };
    net.addEventListener('ready', this.onReady);
    // The live region's last words were in the language just left: silent,
    // not read out later in the wrong language.
    this.offLang = onLangChange(() => {
      this.view.clearAnnouncement();
      this.view.relabel();
    });
  }

  destroy() {
    this.net.removeEventListener('ready', this.onReady);
    this.offLang();
    if (this.mode && this.mode.destroy) this.mode.destroy();
    this.mode = null;
  }

  get busy() { return this.pendingCount > 0; }

  // Resolves when every queued request has been answered and animated.
  idle() {
    if (this.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  enqueue(fn) {
    this.pendingCount += 1;
    this.ui.setBusy && this.ui.setBusy(true);
    const run = this.chain.then(fn);
    this.chain = run.catch((err) => this.log(`queued task failed: ${err && (err.message || err.code || err)}`))
      .finally(() => {
        this.pendingCount -= 1;
        if (this.pendingCount === 0) {
          this.ui.setBusy && this.ui.setBusy(false);
          for (const w of this.idleWaiters.splice(0)) w();
          if (this.mode && this.mode.afterIdle) this.mode.afterIdle();
        }
      });
    return run;
  }

  log(text) {
    this.net.note(text);
    // Notes for whoever debugs (kept in net's log too), not news for a
    // player who opens the console: the browser shows them only at its
    // Verbose level.
    console.debug(`[tilecrush] ${text}`);
  }

  // Starts a game: {mode, preset, seed, daily, board, ...}.
  start(params) {
    return this.enqueue(async () => {
      const reply = await this.net.request('new_game', params);
      this.load(reply.game);
    });
  }

  resumeGame(gameId) {
    return this.enqueue(async () => {
      const reply = await this.net.request('resume', { game_id: gameId });
      this.load(reply.game);
    });
  }

  async resume(why) {
    if (!this.model) return;
    this.resyncs += 1;
    this.log(`resume (${why}) ${this.model.gameId}`);
    try {
      const reply = await this.net.request('resume', { game_id: this.model.gameId });
      this.load(reply.game);
    } catch (err) {
      this.log(`resume failed: ${err.code} ${err.message}`);
      const { key, vars } = refusalText(err);
      this.ui.setMessage(t(key, vars));
    }
  }

  load(gameView) {
    this.generation += 1;
    this.gameView = gameView;
    const previousMode = this.model && this.model.mode;
    this.model = modelFromView(gameView);
    this.moveBudget = gameView.moves_left == null ? null : gameView.moves_left + gameView.move_count;
    this.view.setup(this.model);
    if (!this.mode || previousMode !== this.model.mode) {
      if (this.mode && this.mode.destroy) this.mode.destroy();
      this.mode = this.modeFactories[this.model.mode](this);
    }
    if (this.mode.onLoad) this.mode.onLoad(gameView);
    this.verifyHash(gameView.state_hash, 'game view');
    this.ui.setHud(this);
    this.ui.setMessage('');
    if (gameView.over) this.ui.showOver(this, null);
    this.dispatchEvent(new CustomEvent('loaded', { detail: gameView }));
  }

  movesLeft() {
    if (this.moveBudget == null || !this.model) return null;
    return Math.max(0, this.moveBudget - this.model.moveCount);
  }

  // Sends a move and plays its events. Returns the reply, or null when the
  // server refused it (the error goes to onError, then to the message line).
  // A move names the moves this view holds (move_count): where the game has
  // moved on in another tab or device, the server refuses it unplayed
  // (`stale`) instead of playing it on a board the player never saw, and
  // the game is shown as it stands.
  move(type, fields, { onError } = {}) {
    return this.enqueue(async () => {
      if (!this.model || this.model.over) return null;
      const seen = type === 'resign' ? {} : { move_count: this.model.moveCount };
      let reply;
      try {
        reply = await this.net.request(type, { game_id: this.model.gameId, ...fields, ...seen }, { wait: false });
      } catch (err) {
        if (onError) await onError(err);
        await this.catchUp(err);
        this.showError(err);
        return null;
      }
      await this.playReply(reply);
      return reply;
    });
  }

  undo() {
    return this.enqueue(async () => {
      if (!this.model) return;
      try {
        const reply = await this.net.request('undo',
          { game_id: this.model.gameId, move_count: this.model.moveCount }, { wait: false });
        this.load(reply.game);
        // The live region still held the undone move's "Score +81, now 330".
        this.view.announce(t('say.undone', { total: reply.game.score, moves: reply.game.move_count }));
      } catch (err) {
        await this.catchUp(err);
        this.showError(err);
      }
    });
  }

  // After a `stale` refusal: the game as it stands (loaded from the server),
  // before the refusal says why. Runs inside the queue's current task.
  async catchUp(err) {
    if (err && err.code === 'stale' && this.model) await this.resume('stale');
  }

  resign() {
    return this.move('resign', {});
  }

  // A message the server sent on its own about this game: the close of its
  // competition ends it (game_over, reason `closed`). Taken as an `events`
  // message ({game_id, events, score, move_count, over, state_hash}), as a
  // bare `game_over` ({game_id, reason, bonus, final_score}) or as a fresh
  // `game` view. Returns true when it was this game's.
  applyPush(msg) {
    if (!msg || !this.model) return false;
    const gameId = msg.game_id ?? (msg.game && msg.game.game_id);
    if (gameId !== this.model.gameId) return false;
    if (msg.type === 'game' && msg.game) {
      this.enqueue(() => this.load(msg.game));
      return true;
    }
    let events = null;
    if (msg.type === 'events' && Array.isArray(msg.events)) events = msg.events;
    else if (msg.type === 'game_over') {
      events = [{ kind: 'game_over', reason: msg.reason, bonus: msg.bonus ?? 0, final_score: msg.final_score }];
    }
    if (!events) return false;
    this.enqueue(async () => {
      if (!this.model || this.model.over || this.model.gameId !== gameId) return;
      const score = this.model.score;
      events = events.map((e) => (e.kind === 'game_over'
        ? { ...e, bonus: e.bonus ?? 0, final_score: e.final_score ?? score } : e));
      const over = events.find((e) => e.kind === 'game_over');
      await this.playReply({
        type: 'events', game_id: gameId, events,
        move_count: msg.move_count ?? this.model.moveCount,
        score: msg.score ?? (over && over.final_score != null ? over.final_score : this.model.score),
        over: msg.over ?? !!over,
        state_hash: msg.state_hash ?? null,
      });
    });
    return true;
  }

  // A refusal says why (refusals.js maps the server's reason), on the
  // message line and in the board's live region.
  showError(err) {
    const { key, vars } = refusalText(err);
    const text = t(key, vars);
    this.ui.setMessage(text);
    this.view.announce(text);
  }

  // Applies an `events` reply in order, animated, then checks the hash.
  async playReply(reply) {
    this.lastReply = reply;
    // An accepted move (or the game's end) clears the last refusal.
    this.ui.setMessage('');
    const scoreBefore = this.model.score;
    const ctx = {};
    const firstMove = this.model.moveCount === 0;
    for (const ev of reply.events || []) {
      applyEvent(this.model, ev);
      if (this.mode.onEvent) this.mode.onEvent(ev);
      await animateEvent(this.view, ev, ctx);
      this.ui.setHud(this);
    }
    this.model.moveCount = reply.move_count;
    if (reply.score !== this.model.score) {
      this.log(`score differs: client ${this.model.score}, server ${reply.score}`);
    }
    if (this.gameView) {
      this.gameView = { ...this.gameView, score: reply.score, move_count: reply.move_count, over: reply.over };
    }
    if (firstMove && this.mode.onFirstMove) this.mode.onFirstMove();
    this.dispatchEvent(new CustomEvent('reply', { detail: reply }));
    const ok = this.verifyHash(reply.state_hash, reply.events && reply.events[0] && reply.events[0].kind);
    // A finished board keeps no hint, pick or preview: there is no move left
    // to suggest or make.
    if (this.model.over) for (const mark of ['hint', 'picked', 'preview']) this.view.unmark(mark);
    this.ui.setHud(this);
    this.view.announce(describeReply(reply, scoreBefore, t));
    if (!ok) {
      await this.resume('state_hash mismatch');
      return;
    }
    const over = (reply.events || []).find((e) => e.kind === 'game_over');
    if (over || reply.over) {
      this.model.over = true;
      if (this.mode.onOver) this.mode.onOver();
      this.ui.showOver(this, over ? { reason: over.reason, bonus: over.bonus, finalScore: over.final_score } : null);
      this.dispatchEvent(new CustomEvent('over', { detail: over }));
    }
  }

  // Compares the client's state_hash with the server's. In hidden mode
  // protocol.md leaves open whether a selected cell counts as seen (the
  // protocol module's README says it does: the board shows it), so both
  // readings are tried, that one first, and the one that matched is kept.
  verifyHash(serverHash, what) {
    this.lastStateHash = serverHash;
    const candidates = candidateHashes(this.model);
    let computed = candidates[0];
    if (candidates.length > 1) {
      const idx = this.hiddenSelectedShown === false ? [0, 1] : [1, 0];
      const hit = idx.find((i) => candidates[i] === serverHash);
      if (hit !== undefined) {
        computed = candidates[hit];
        if (this.hiddenSelectedShown === null) {
          this.hiddenSelectedShown = hit === 1;
          this.log(`hidden mode: selected cells ${hit === 1 ? 'count' : 'do not count'} as seen in state_hash`);
        }
      }
    }
    this.lastComputedHash = computed;
    if (!serverHash || computed === serverHash) return true;
    this.hashMismatches += 1;
    this.log(`state_hash mismatch after ${what}: client ${computed}, server ${serverHash}`);
    console.warn(`[tilecrush] state_hash mismatch after ${what}: client ${computed} server ${serverHash}`);
    return false;
  }
}
