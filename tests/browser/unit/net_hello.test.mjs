// The hello exchange of web-client/js/net.js with a recovery code
// (protocol.md, "Recovery codes"), against a scripted fake WebSocket: a
// taken name asks again with reason 'taken'; a code is sent as `recovery`
// and never with the token; a wrong code asks again with 'recovery_wrong',
// a locked name with 'recovery_locked'; the welcome's device token is saved.

import test from 'node:test';
import assert from 'node:assert/strict';
import { Connection } from '../../../web-client/js/net.js';

// Answers each hello with the next scripted reply.
function fakeSocket(replies, sent) {
  return class FakeWebSocket {
    constructor() {
      this.readyState = 1;
      setTimeout(() => this.onopen && this.onopen(), 0);
    }
    send(text) {
      const msg = JSON.parse(text);
      sent.push(msg);
      const reply = replies.shift();
      setTimeout(() => this.onmessage({ data: JSON.stringify({ ...reply, id: msg.id }) }), 0);
    }
    close() {}
  };
}

function fakeIdentity(stored, answers) {
  const asked = [];
  const saved = [];
  return {
    asked,
    saved,
    get: () => stored,
    save: (v) => saved.push(v),
    askName: async (reason, name) => {
      asked.push([reason, name]);
      return answers.shift();
    },
  };
}

const unauthorized = (message) => ({ type: 'error', code: 'unauthorized', message });
const welcome = { type: 'welcome', player: { id: 7, name: 'Ada' }, token: 'd'.repeat(32) };

test('a taken name, a wrong code, a locked name, then the right code', async () => {
  const sent = [];
  const replies = [
    unauthorized('wrong token for this name'),
    unauthorized('wrong recovery code for this name'),
    { type: 'error', code: 'rate_limited', message: 'too many wrong recovery codes for this name; try again later' },
    welcome,
  ];
  const identity = fakeIdentity({ name: 'Ada', token: 'old-token' },
    [{ name: 'Ada', recovery: 'bad' }, { name: 'Ada', recovery: 'bad again' }, { name: 'ada', recovery: 'good' }]);
  const net = new Connection({ url: 'ws://test/ws', identity, WebSocketImpl: fakeSocket(replies, sent) });
  net.connect();
  const player = await net.ready();
  net.close();
  assert.deepEqual(player, { id: 7, name: 'Ada' });
  assert.deepEqual(sent.map(({ name, token, recovery }) => ({ name, token, recovery })), [
    { name: 'Ada', token: 'old-token', recovery: undefined },
    { name: 'Ada', token: undefined, recovery: 'bad' },
    { name: 'Ada', token: undefined, recovery: 'bad again' },
    { name: 'ada', token: undefined, recovery: 'good' },
  ]);
  assert.deepEqual(identity.asked, [['taken', 'Ada'], ['recovery_wrong', 'Ada'], ['recovery_locked', 'Ada']]);
  assert.deepEqual(identity.saved, [{ name: 'Ada', token: 'd'.repeat(32) }]);
});

test('a plain name from the dialog is sent as before', async () => {
  const sent = [];
  const identity = fakeIdentity(null, ['Ada']);
  const net = new Connection({ url: 'ws://test/ws', identity, WebSocketImpl: fakeSocket([welcome], sent) });
  net.connect();
  await net.ready();
  net.close();
  assert.deepEqual(identity.asked, [[null, undefined]]);
  assert.equal(sent[0].name, 'Ada');
  assert.ok(!('recovery' in sent[0]) && !('token' in sent[0]));
});

test('a closed dialog sends no hello, closes the socket and stays down until connect()', async () => {
  const sent = [];
  const identity = fakeIdentity(null, [null, 'Ada']);
  let closed = 0;
  const Socket = fakeSocket([welcome], sent);
  const net = new Connection({ url: 'ws://test/ws', identity,
    WebSocketImpl: class extends Socket { close() { closed += 1; } } });
  const declined = new Promise((resolve) => net.addEventListener('declined', resolve));
  net.connect();
  await declined;
  assert.equal(net.status, 'idle');
  assert.equal(closed, 1);
  assert.deepEqual(sent, []);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(net.status, 'idle', 'no reconnect on its own');
  net.connect();
  const player = await net.ready();
  net.close();
  assert.deepEqual(player, { id: 7, name: 'Ada' });
  assert.deepEqual(identity.asked, [[null, undefined], [null, undefined]]);
});

test('a request waiting for the name is dropped, not sent, when the dialog is closed', { timeout: 5000 }, async () => {
  const sent = [];
  const identity = fakeIdentity(null, [null, 'Ada']);
  const net = new Connection({ url: 'ws://test/ws', identity,
    WebSocketImpl: fakeSocket([welcome, { type: 'rooms', id: 0 }], sent) });
  const declined = new Promise((resolve) => net.addEventListener('declined', resolve));
  net.connect();
  const asked = net.request('join_room', { code: 'ABCDEF', as: 'player' });
  await declined;
  net.connect();
  await net.ready();
  await assert.rejects(asked, (err) => err.code === 'disconnected');
  // A request made after the decline is sent as usual.
  await net.request('list_rooms');
  net.close();
  assert.deepEqual(sent.map((m) => m.type), ['hello', 'list_rooms']);
});

// A connection gone silent (a dead link, a frozen server): a request not
// answered in time drops it at once, rejecting what is pending, and the
// status goes offline (then the usual reconnect), without waiting for the
// browser's close event, which comes about a minute later.
test('a request left unanswered drops the connection at once', async () => {
  let sockets = 0;
  let closeEvents = 0;
  class SilentAfterHello {
    constructor() {
      sockets += 1;
      this.readyState = 1;
      setTimeout(() => this.onopen && this.onopen(), 0);
    }
    send(text) {
      const msg = JSON.parse(text);
      if (msg.type === 'hello') setTimeout(() => this.onmessage({ data: JSON.stringify({ ...welcome, id: msg.id }) }), 0);
    }
    close() { closeEvents += 1; this.readyState = 2; }
  }
  const identity = fakeIdentity({ name: 'Ada', token: 'd'.repeat(32) }, []);
  const net = new Connection({ url: 'ws://test/ws', identity, WebSocketImpl: SilentAfterHello, answerWithinMs: 50 });
  const statuses = [];
  net.addEventListener('status', (e) => statuses.push(e.detail));
  net.connect();
  await net.ready();
  const started = Date.now();
  await assert.rejects(net.request('new_game', { mode: 'same', preset: 'easy' }), (err) => err.code === 'disconnected');
  assert.ok(Date.now() - started < 1000, 'dropped after the answer time, not the browser close timeout');
  assert.equal(closeEvents, 1);
  assert.ok(statuses.includes('offline'), statuses.join(' '));
  assert.match(net.log.join('\n'), /no answer to new_game within 50 ms/);
  net.close();
  assert.equal(sockets, 1);
});
