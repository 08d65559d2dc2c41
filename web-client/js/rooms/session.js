// One room on screen: joins it (as a player or a spectator), follows its
// pushes, and shows the lobby, the race (own board plus everyone's live
// score), the spectator's boards and the final standings.
//
// Pushes that arrive before the join answer are kept and applied after it
// (protocol/README.md: a room_events can overtake the answer). After a
// reconnect the room is joined again: a player gets their game back (the
// GameController also resumes it), a spectator fresh views.

import { h, link } from '../dom.js';
import { boardUrl } from '../presets.js';
import { t } from '../i18n.js';
import { confirmDialog } from '../confirm.js';
import {
  roleFromAnswer, applyProgress, pushCode, sameCode, roomUrl, rememberRoom, forgetRoom, scoreboard, leftNames,
} from './state.js';
import { Follower } from './follow.js';
import { RaceView } from './race.js';
import { WatchView } from './watch.js';
import { shareBox, playersTable, standingsTable } from './views.js';

const ERRORS = { not_found: 'rooms.err.notFound', not_allowed: 'rooms.err.notAllowed',
  disconnected: 'err.disconnected', invalid_move: 'err.invalid_move' };

export class RoomSession {
  // onMissing(err): the first join found no room with this code (the page
  // then shows the join form with the error instead of a room).
  constructor(app, { code, watch, onMissing = null }) {
    this.app = app;
    this.onMissing = onMissing;
    this.net = app.net;
    this.code = code;
    this.wantWatch = !!watch;
    this.role = null;
    this.room = null;
    this.standings = null;
    this.joined = false;
    this.buffer = [];
    this.race = null;
    this.follower = null;
    this.watch = null;
    this.closed = false;
    this.joins = 0;
    this.resyncs = 0;

    this.title = h('span', { testid: 'room-code' }, code);
    this.info = h('p', { class: 'seed-line', testid: 'room-info' });
    this.share = h('div');
    this.players = h('div', { class: 'room-side-players' });
    this.lobby = h('div', { class: 'room-lobby', testid: 'room-lobby' });
    this.game = h('div', { class: 'room-game' });
    this.finish = h('div');
    this.message = h('p', { class: 'message room-message', testid: 'room-message', role: 'status' });
    this.leaveBtn = h('button', { type: 'button', testid: 'btn-leave-room', i18n: 'rooms.leave' });
    this.leaveBtn.addEventListener('click', () => this.leave());
    this.el = h('section', { class: 'rooms', testid: 'rooms-page', dataset: { state: 'joining', role: '' } },
      h('div', { class: 'card room-head' },
        h('h2', {}, h('span', { i18n: 'rooms.room' }), ' ', this.title), this.info, this.share),
      this.message, this.finish,
      h('div', { class: 'room-layout' }, this.game,
        h('aside', { class: 'card room-side' }, this.players, this.lobby,
          h('div', { class: 'controls' }, this.leaveBtn))));

    this.onReady = (e) => {
      if (e.detail.reconnect && !this.closed && this.role !== 'left') this.join();
    };
    this.net.addEventListener('ready', this.onReady);
  }

  get me() { return this.net.player ? this.net.player.name : null; }

  setMessage(text) { this.message.textContent = text || ''; }

  showError(err) {
    const key = ERRORS[err && err.code];
    this.setMessage(key ? t(key) : t('err.generic', { message: (err && (err.message || err.code)) || '?' }));
  }

  async join() {
    this.joined = false;
    this.buffer = [];
    const as = this.role === 'spectator' || (!this.role && this.wantWatch) ? 'spectator' : 'player';
    let answer;
    try {
      answer = await this.net.request('join_room', { code: this.code, as });
    } catch (err) {
      if (this.closed || err.code === 'disconnected') return;
      if (err.code === 'not_found' && this.joins === 0 && this.onMissing) {
        this.onMissing(err);
        return;
      }
      this.showError(err);
      this.el.dataset.state = 'error';
      // A started or full room still welcomes spectators.
      if (err.code === 'not_allowed' && as === 'player') this.offerWatch();
      return;
    }
    if (!this.closed) this.adopt(answer);
  }

  offerWatch() {
    const b = h('button', { type: 'button', class: 'primary', testid: 'btn-watch-instead', i18n: 'rooms.watchInstead' });
    b.addEventListener('click', () => {
      this.wantWatch = true;
      this.lobby.replaceChildren();
      this.setMessage('');
      this.join();
    });
    this.lobby.replaceChildren(b);
  }

  // Takes the `room` answer of join_room, then the pushes that came meanwhile.
  adopt(answer) {
    this.room = answer.room;
    this.code = answer.room.code;
    this.role = roleFromAnswer(answer, this.me);
    rememberRoom(this.code, this.role === 'spectator');
    const url = roomUrl(this.code, { watch: this.role === 'spectator' });
    if (location.pathname + location.search !== url) history.replaceState(null, '', url);
    if (this.role === 'player') {
      this.ensureRace();
      const g = answer.game;
      if (g && !(this.race.ctrl.model && this.race.gameId === g.game_id)) this.race.load(g);
    } else {
      this.ensureWatch();
      if (answer.games) this.resetBoards(answer.games);
    }
    this.joined = true;
    this.joins += 1;
    this.setMessage('');
    const kept = this.buffer;
    this.buffer = [];
    for (const msg of kept) this.handlePush(msg);
    this.render();
  }

  ensureRace() {
    if (this.race) return;
    this.race = new RaceView(this.net);
    this.app.setGame(this.race.ctrl);
  }

  ensureWatch() {
    if (this.follower) return;
    this.follower = new Follower();
    this.watch = new WatchView(this.follower);
  }

  resetBoards(games) {
    this.follower.reset(games);
    this.watch.reset();
  }

  // A push without an id. Returns true when it was this room's.
  handlePush(msg) {
    const code = pushCode(msg);
    if (this.closed || !code || !sameCode(code, this.code)) return false;
    if (!this.joined) {
      this.buffer.push(msg);
      return true;
    }
    switch (msg.type) {
      case 'room':
        this.room = msg.room;
        break;
      case 'room_started':
        if (this.room) this.room = { ...this.room, state: 'playing' };
        if (msg.game && this.role === 'player') {
          this.race.load(msg.game).then(() => this.race.reveal());
        }
        if (msg.games && this.role === 'spectator') this.resetBoards(msg.games);
        break;
      case 'room_progress':
        this.room = applyProgress(this.room, msg);
        this.renderPlayers();
        return true;
      case 'room_events':
        if (this.role === 'spectator') this.followMove(msg);
        return true;
      case 'room_game':
        if (this.role === 'spectator') {
          this.follower.load(msg.player, msg.game);
          this.watch.replaced(msg.player, msg.game);
        }
        return true;
      case 'room_finished':
        this.standings = msg.standings;
        if (this.room) this.room = { ...this.room, state: 'finished' };
        break;
      default:
        return true;
    }
    this.render();
    return true;
  }

  followMove(msg) {
    const result = this.follower.apply(msg);
    if (result === 'applied') {
      this.watch.played(msg.player, msg.events || []);
      if (!this.follower.boards.get(msg.player).hashOk) {
        this.net.note(`room ${this.code}: ${msg.player}'s board differs from state_hash ${msg.state_hash}`);
        this.resync();
      }
    } else if (result === 'gap' || result === 'unknown') {
      this.net.note(`room ${this.code}: ${result} at ${msg.player} move ${msg.move_count}`);
      this.resync();
    }
  }

  // A spectator who lost track joins again: the answer brings fresh views
  // of every board (pushes meanwhile wait for it).
  async resync() {
    if (this.resyncing || this.role !== 'spectator') return;
    this.resyncing = true;
    this.resyncs += 1;
    await this.join();
    this.resyncing = false;
  }

  async start() {
    const btn = this.lobby.querySelector('[data-testid="btn-start-room"]');
    if (btn) btn.disabled = true;
    try {
      const answer = await this.net.request('start_room', { code: this.code });
      if (answer.room && this.room && this.room.state === 'lobby') this.room = answer.room;
      this.render();
    } catch (err) {
      if (btn) btn.disabled = false;
      this.showError(err);
    }
  }

  // Leaving a race is asked first, in the site's dialog (as giving up is):
  // the player is out of it for good.
  async leave() {
    const racing = () => this.role === 'player' && this.room && this.room.state === 'playing'
      && this.race && this.race.ctrl.model && !this.race.ctrl.model.over;
    if (racing() && !await confirmDialog({ title: t('rooms.leaveTitle'), text: t('rooms.leaveText'),
      ok: t('rooms.leaveOk'), cancel: t('rooms.leaveStay'), danger: true })) return;
    if (this.closed) return;
    this.leaveBtn.disabled = true;
    try {
      await this.net.request('leave_room', { code: this.code });
    } catch (err) {
      // A room that is gone (or forgot us) is left anyway.
      if (err.code === 'disconnected') {
        this.leaveBtn.disabled = false;
        this.showError(err);
        return;
      }
    }
    this.role = 'left';
    forgetRoom();
    this.app.navigate('/?view=rooms');
  }

  labelLeave() {
    this.leaveBtn.textContent = t('rooms.leave');
  }

  render() {
    const room = this.room;
    if (!room) return;
    this.el.dataset.state = room.state;
    this.el.dataset.role = this.role || '';
    this.title.textContent = room.code;
    this.info.textContent = [
      `${t(`mode.${room.mode}`)} · ${room.preset ? t(`preset.${room.preset}`) : t('preset.custom')}`,
      `${t('hud.seed')}: ${room.seed}`,
      this.role === 'spectator' ? t('rooms.youWatch') : t('rooms.youPlay'),
    ].join(' · ');
    // Rebuilt only when it changes, so that a "copied" mark stays.
    const shareKey = room.state === 'finished' ? '' : `${room.code}:${room.state}:${t('rooms.sharePlay')}`;
    if (this.shareKey !== shareKey) {
      this.shareKey = shareKey;
      this.share.replaceChildren(shareKey ? shareBox(room.code, { watchOnly: room.state !== 'lobby' }) : '');
    }
    this.renderPlayers();
    this.renderLobby();
    this.renderGame();
    this.finish.replaceChildren(this.standings ? standingsTable(this.standings, this.me, this.nextSteps(), leftNames(room)) : '');
    if (this.race) this.race.setFinished(room.state === 'finished');
  }

  // After the race: another room, or the same board alone (a preset's
  // board has an address; a custom one does not).
  nextSteps() {
    const room = this.room;
    const steps = [link('/?view=rooms', t('rooms.newRoom'), { class: 'button primary', testid: 'room-new' })];
    if (room && room.preset && room.seed) {
      steps.push(link(boardUrl(room.mode, room.preset, room.seed), t('rooms.playAlone'),
        { class: 'button', testid: 'room-play-alone' }));
    }
    return steps;
  }

  renderPlayers() {
    if (!this.room) return;
    this.players.replaceChildren(playersTable(this.room, this.me));
    if (this.race) this.race.setRivals(scoreboard(this.room).filter((p) => p.name !== this.me));
  }

  renderLobby() {
    const room = this.room;
    if (room.state !== 'lobby') {
      this.lobby.replaceChildren();
      return;
    }
    if (this.role === 'player' && room.host === this.me) {
      const b = h('button', { type: 'button', class: 'primary', testid: 'btn-start-room', i18n: 'rooms.start' });
      b.addEventListener('click', () => this.start());
      this.lobby.replaceChildren(h('p', { class: 'note', i18n: 'rooms.startHint' }), b);
    } else {
      this.lobby.replaceChildren(h('p', { class: 'note', testid: 'room-wait-host' },
        t('rooms.waitHost', { host: room.host })));
    }
  }

  renderGame() {
    const wanted = this.room.state === 'lobby' ? null
      : this.role === 'player' ? this.race && this.race.el
        : this.watch && this.watch.el;
    if (wanted && this.game.firstChild !== wanted) this.game.replaceChildren(wanted);
    if (!wanted) this.game.replaceChildren();
  }

  refresh() {
    this.render();
    if (this.race) this.race.refresh();
    if (this.watch) this.watch.refresh();
    this.labelLeave();
  }

  // What the tests look at (window.__tilecrush.room).
  debug() {
    return {
      code: this.code,
      role: this.role,
      state: this.room ? this.room.state : null,
      joined: this.joined,
      joins: this.joins,
      resyncs: this.resyncs,
      room: this.room,
      standings: this.standings,
      boards: this.follower ? this.follower.snapshot() : null,
      mismatches: this.follower ? this.follower.mismatches : 0,
      gaps: this.follower ? this.follower.gaps : 0,
    };
  }

  idle() {
    return Promise.all([this.watch ? this.watch.idle() : null, this.race ? this.race.ctrl.idle() : null]);
  }

  destroy() {
    this.closed = true;
    this.net.removeEventListener('ready', this.onReady);
    // A spectator who walks away stops watching; a player stays a member
    // and can come back through the room's address.
    if (this.role === 'spectator' && this.joined) {
      this.net.request('leave_room', { code: this.code }, { wait: false }).catch(() => {});
    }
    if (this.race) {
      this.race.destroy();
      this.app.setGame(null);
    }
  }
}
