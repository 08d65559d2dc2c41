// A player over the WebSocket, as a browser would be, for the container tests
// (tests/docker/image_test.sh, tests/docker/compose_test.sh). A minimal RFC
// 6455 client on node:net (masked text frames, pong, close): no packages.
//   node ws_player.mjs play HOST:PORT NAME MOVES [QUERY]
//     hello as a new player, a ranked Same Game on the classic preset, MOVES
//     moves (each the server's own hint); prints
//     {"token","game_id","state_hash","move_count","score","ranked"}
//   node ws_player.mjs resume HOST:PORT NAME TOKEN GAME_ID MOVES [QUERY]
//     hello with the token, resume the game, then MOVES more moves; prints
//     {"resumed_hash","resumed_move_count","state_hash","move_count","score","ranked"}
//   QUERY (for example "node=n2") is added to /ws.
// Any error answer, a closed connection or 20 s without an answer exits 1.

import crypto from 'node:crypto';
import net from 'node:net';

class Client {
  constructor(host, port, query) {
    this.host = host;
    this.port = port;
    this.path = query ? `/ws?${query}` : '/ws';
    this.buf = Buffer.alloc(0);
    this.waiting = null;
    this.queue = [];
    this.nextId = 1;
  }

  open() {
    return new Promise((resolve, reject) => {
      const key = crypto.randomBytes(16).toString('base64');
      this.socket = net.connect(this.port, this.host);
      this.socket.on('error', reject);
      this.socket.on('close', () => this.fail(new Error('connection closed')));
      this.socket.once('connect', () => {
        this.socket.write(`GET ${this.path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`
          + 'Upgrade: websocket\r\nConnection: Upgrade\r\n'
          + `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      });
      let head = Buffer.alloc(0);
      const onHead = (d) => {
        head = Buffer.concat([head, d]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        this.socket.off('data', onHead);
        const status = head.subarray(0, head.indexOf('\r\n')).toString();
        if (!status.startsWith('HTTP/1.1 101')) {
          reject(new Error(`upgrade refused: ${status}`));
          return;
        }
        this.socket.on('data', (more) => this.onData(more));
        if (head.length > end + 4) this.onData(head.subarray(end + 4));
        resolve();
      };
      this.socket.on('data', onHead);
    });
  }

  fail(err) {
    if (this.waiting) {
      const { reject } = this.waiting;
      this.waiting = null;
      reject(err);
    }
  }

  send(opcode, payload) {
    const mask = crypto.randomBytes(4);
    const len = payload.length;
    const header = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
      : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff]);
    const body = Buffer.from(payload);
    for (let i = 0; i < body.length; i++) body[i] ^= mask[i % 4];
    this.socket.write(Buffer.concat([header, mask, body]));
  }

  onData(d) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      if (this.buf.length < 2) return;
      const opcode = this.buf[0] & 0x0f;
      let len = this.buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        off = 10;
      }
      if (this.buf.length < off + len) return;
      const payload = this.buf.subarray(off, off + len);
      this.buf = this.buf.subarray(off + len);
      if (opcode === 0x9) this.send(0xa, payload);
      else if (opcode === 0x8) this.fail(new Error('server closed the WebSocket'));
      else if (opcode === 0x1) this.onMessage(JSON.parse(payload.toString()));
    }
  }

  onMessage(msg) {
    // Only direct answers matter here; pushes carry no id.
    if (msg.id === undefined || !this.waiting || msg.id !== this.waiting.id) return;
    const { resolve, reject } = this.waiting;
    this.waiting = null;
    if (msg.type === 'error') reject(new Error(`error answer: ${JSON.stringify(msg)}`));
    else resolve(msg);
  }

  request(body) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${body.type} in 20 s`)), 20000);
      this.waiting = {
        id,
        resolve: (m) => { clearTimeout(timer); resolve(m); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
      this.send(0x1, JSON.stringify({ ...body, id }));
    });
  }

  close() {
    this.socket.removeAllListeners('close');
    this.send(0x8, Buffer.alloc(0));
    this.socket.end();
  }
}

// MOVES clicks, each on the group the server's hint names.
async function play(client, game, moves) {
  let last = { state_hash: game.state_hash, move_count: game.move_count, score: game.score };
  for (let i = 0; i < moves && !game.over; i++) {
    const hint = await client.request({ type: 'hint', game_id: game.game_id });
    const [x, y] = hint.click;
    last = await client.request({ type: 'click', game_id: game.game_id, x, y });
    if (last.move_count !== game.move_count + i + 1) throw new Error(`move_count ${last.move_count} after move ${i + 1}`);
  }
  return { state_hash: last.state_hash, move_count: last.move_count, score: last.score };
}

async function main() {
  const [command, address, name, ...rest] = process.argv.slice(2);
  const [host, port] = address.split(':');
  if (command === 'play') {
    const [moves, query] = rest;
    const client = new Client(host, Number(port), query);
    await client.open();
    const welcome = await client.request({ type: 'hello', name });
    const { game } = await client.request({ type: 'new_game', mode: 'same', preset: 'classic' });
    if (!game.ranked) throw new Error('the game on the classic preset is not ranked');
    const after = await play(client, game, Number(moves));
    client.close();
    console.log(JSON.stringify({ token: welcome.token, game_id: game.game_id, ranked: game.ranked, ...after }));
  } else if (command === 'resume') {
    const [token, gameId, moves, query] = rest;
    const client = new Client(host, Number(port), query);
    await client.open();
    await client.request({ type: 'hello', name, token });
    const { game } = await client.request({ type: 'resume', game_id: gameId });
    const after = await play(client, game, Number(moves));
    client.close();
    console.log(JSON.stringify({ resumed_hash: game.state_hash, resumed_move_count: game.move_count,
      ranked: game.ranked, ...after }));
  } else {
    throw new Error(`unknown command ${command}`);
  }
}

main().catch((err) => {
  console.error(`ws_player: ${err.message}`);
  process.exit(1);
});
