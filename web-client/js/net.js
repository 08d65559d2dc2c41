// The WebSocket connection (protocol.md, "WebSocket /ws").
//
// - Sends `hello` first with the stored name and token; asks the player for a
//   name when there is none or the server refuses it; stores what `welcome`
//   returns.
// - request(type, fields) gives every message an `id` and returns a promise
//   resolved by the reply with the same id; an `error` reply rejects it with
//   {code, message}. A lost connection rejects what is still pending with
//   code `disconnected`.
// - `ping` every 20 s; any request (a ping, a move) not answered within 10 s
//   drops the socket at once (the browser's own close of a silent socket
//   waits about a minute for the handshake): the status goes offline and the
//   usual reconnect follows.
// - After a drop it reconnects with exponential backoff and sends hello again;
//   listeners of the `ready` event ({reconnect: true}) then resume their game.
// - Messages without an id (rooms) are dispatched as `push` events.
// - Several nodes (protocol.md, "Several nodes"): a request answered `moved`
//   reconnects to /ws?room=<room>&node=<node> (the node serving the room),
//   says hello again and sends the request once more. A routed address that
//   cannot be reached falls back to /ws?room=<room>, which the proxy hashes
//   to a live node.

const PING_EVERY_MS = 20000;
const ANSWER_WITHIN_MS = 10000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10000;

export function defaultUrl(loc = window.location) {
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${loc.host}/ws`;
}

export class Connection extends EventTarget {
  // identity: {get() -> {name, token} | null, save({name, token}),
  //            askName(reason, name) -> Promise<string | {name, recovery} | null>}
  //            (null: the player declined; see decline())
  // answerWithinMs: how long a request may go unanswered before the
  // connection counts as gone silent (tests shorten it).
  constructor({ url = defaultUrl(), identity, WebSocketImpl = globalThis.WebSocket,
    answerWithinMs = ANSWER_WITHIN_MS } = {}) {
    super();
    this.answerWithinMs = answerWithinMs;
    this.baseUrl = url;
    this.url = url;
    this.identity = identity;
    this.WebSocketImpl = WebSocketImpl;
    this.ws = null;
    this.status = 'idle';
    this.player = null;
    this.nextId = 1;
    this.pending = new Map();
    this.waiters = [];
    this.declines = 0;  // times the player closed the name dialog (decline())
    this.attempt = 0;
    this.everReady = false;
    this.stopped = false;
    this.pingTimer = null;
    this.reconnectTimer = null;
    this.log = [];
  }

  connect() {
    this.stopped = false;
    this.open();
  }

  // Resolves once hello has been answered by welcome.
  ready() {
    if (this.status === 'online') return Promise.resolve(this.player);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // ready() for a request made now: if the player closes the name dialog
  // before the connection is ready, the request is dropped (rejected as
  // disconnected) rather than sent once a name is given later, maybe on
  // another page: it belongs to the page the player turned down.
  async readyAsBefore() {
    const declines = this.declines;
    await this.ready();
    if (this.declines !== declines) throw { code: 'disconnected', message: 'no player name' };
  }

  // Sends a request; by default waits for the connection to be ready first.
  // With {wait: false} a request made while offline fails at once.
  async request(type, fields = {}, { wait = true } = {}) {
    if (this.status !== 'online') {
      if (!wait) throw { code: 'disconnected', message: 'not connected' };
      await this.readyAsBefore();
    }
    try {
      return await this.sendRaw(type, fields);
    } catch (err) {
      if (err.code !== 'moved' || !err.room || !wait) throw err;
      this.routeTo(err.room, err.node);
      await this.readyAsBefore();
      return this.sendRaw(type, fields);
    }
  }

  // The address of the node serving `room`; reconnects there.
  routeTo(room, node) {
    const url = new URL(this.baseUrl);
    url.searchParams.set('room', room);
    // A node without a name ("") is found by the room code alone.
    if (node) url.searchParams.set('node', node);
    this.note(`moved: room ${room} is on node ${node}`);
    this.url = url.toString();
    this.routed = Boolean(node);
    this.attempt = 0;
    if (this.ws) {
      this.ws.close();
    } else {
      this.open();
    }
  }

  // Drops the socket as a network fault would (tests and debugging).
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopPing();
    if (this.ws) this.ws.close(1000);
  }

  // The player closed the name dialog: no hello, no connection, and no
  // reconnecting until connect() is called again ('declined' tells the page).
  decline() {
    this.declines += 1;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.stopPing();
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
    for (const p of this.pending.values()) p.reject({ code: 'disconnected', message: 'no player name' });
    this.pending.clear();
    this.setStatus('idle');
    this.dispatchEvent(new CustomEvent('declined'));
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: status }));
  }

  note(text) {
    this.log.push(`${new Date().toISOString()} ${text}`);
    if (this.log.length > 200) this.log.shift();
  }

  open() {
    this.setStatus('connecting');
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch (e) {
      this.note(`connect failed: ${e}`);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.onOpen(ws);
    ws.onmessage = (e) => this.onMessage(ws, e.data);
    ws.onclose = (e) => this.onClose(ws, e);
    ws.onerror = () => { /* onclose follows */ };
  }

  sendRaw(type, fields) {
    const id = this.nextId++;
    const msg = { ...fields, type, id };
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== 1) {
        reject({ code: 'disconnected', message: 'not connected' });
        return;
      }
      const ws = this.ws;
      const timer = setTimeout(() => this.dropSilent(ws, type), this.answerWithinMs);
      this.pending.set(id, {
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
        type,
      });
      ws.send(JSON.stringify(msg));
    });
  }

  async onOpen(ws) {
    if (ws !== this.ws) return;
    this.setStatus('hello');
    let reason = null;
    let refusedName;
    for (;;) {
      let ident = this.identity.get();
      // A recovery code, when the player signs in with one instead of a token.
      let recovery;
      if (!ident || !ident.name || reason) {
        const answer = await this.identity.askName(reason, refusedName);
        if (answer == null) {
          if (ws === this.ws) this.decline();
          return;
        }
        const name = typeof answer === 'string' ? answer : answer.name;
        recovery = typeof answer === 'string' ? undefined : answer.recovery;
        ident = { name, token: !recovery && ident && ident.name === name ? ident.token : undefined };
      }
      if (ws !== this.ws) return;
      try {
        const fields = { name: ident.name };
        if (recovery) fields.recovery = recovery;
        else if (ident.token) fields.token = ident.token;
        const welcome = await this.sendRaw('hello', fields);
        this.player = welcome.player;
        // The running competition attempts (running.js), as of this hello.
        this.running = Array.isArray(welcome.running) ? welcome.running : null;
        this.identity.save({ name: welcome.player.name, token: welcome.token || ident.token });
        break;
      } catch (err) {
        if (err.code === 'disconnected') return;
        this.note(`hello refused: ${err.code} ${err.message}`);
        refusedName = ident.name;
        if (recovery) {
          reason = err.code === 'rate_limited' ? 'recovery_locked'
            : err.code === 'unauthorized' ? 'recovery_wrong' : 'invalid';
        } else {
          reason = err.code === 'unauthorized' ? 'taken' : 'invalid';
        }
      }
    }
    const reconnect = this.everReady;
    this.everReady = true;
    this.attempt = 0;
    this.setStatus('online');
    this.startPing();
    // Listeners (the game's resume) send before the queued requests.
    this.dispatchEvent(new CustomEvent('ready', { detail: { reconnect, player: this.player } }));
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(this.player);
  }

  onMessage(ws, data) {
    if (ws !== this.ws) return;
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      this.note('unparsable message');
      return;
    }
    if (msg.id != null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === 'error') {
        p.reject({ code: msg.code, message: msg.message, room: msg.room, node: msg.node });
      }
      else p.resolve(msg);
      return;
    }
    if (msg.type === 'error') this.note(`error without request: ${msg.code} ${msg.message}`);
    this.dispatchEvent(new CustomEvent('push', { detail: msg }));
  }

  onClose(ws, e) {
    if (ws !== this.ws) return;
    this.note(`closed: ${e && e.code}`);
    if (this.routed && this.status === 'connecting') {
      // The named node is gone: let the proxy pick a live one for the room.
      const url = new URL(this.url);
      url.searchParams.delete('node');
      this.url = url.toString();
      this.routed = false;
    }
    this.ws = null;
    this.stopPing();
    for (const p of this.pending.values()) p.reject({ code: 'disconnected', message: 'connection lost' });
    this.pending.clear();
    this.setStatus('offline');
    if (!this.stopped) this.scheduleReconnect();
  }

  scheduleReconnect() {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.setStatus('offline');
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.open();
    }, delay);
  }

  startPing() {
    this.stopPing();
    this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
  }

  stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  // A ping unanswered drops the socket as any request does (sendRaw).
  async ping() {
    if (!this.ws || this.status !== 'online') return;
    try {
      await this.sendRaw('ping', {});
    } catch { /* dropped: onClose has reported it */ }
  }

  // A request went unanswered on `ws`: a dead link or a frozen server. The
  // socket is closed and reported closed now, not when the browser ends its
  // close handshake; its late close event is then ignored (ws !== this.ws).
  dropSilent(ws, type) {
    if (ws !== this.ws) return;
    this.note(`no answer to ${type} within ${this.answerWithinMs} ms: dropping the connection`);
    try { ws.close(); } catch { /* already closing */ }
    this.onClose(ws, { code: 'silent' });
  }
}
