#!/usr/bin/env node
// A mock of tilecrush_server for developing the web client while the real
// server is being written: the same command line, the same "listening" line,
// the protocol.md messages, and the HTTP API, all in memory (--db ignored).
// Run the browser tests against it with
//   TILECRUSH_SERVER=tests/browser/mock/server.mjs npm test
// It is not the product: its boards come from its own generator.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { acceptUpgrade } from './ws.mjs';
import { createGame, presetExists } from './rules.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const staticDir = path.resolve(args.static || '.');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

const players = new Map();   // name -> {token, created_at, games_played}
const games = new Map();     // id -> game
const records = new Map();   // id -> finished game record
let nextGame = 1;

const today = () => new Date().toISOString().slice(0, 10);

function finishRecord(g, player) {
  const rec = { game_id: g.id, player, mode: g.mode, preset: g.preset, seed: g.seed, ranked: g.ranked,
    rules_version: 1, moves: g.moves, score: g.score, duration_ms: Date.now() - g.createdAt,
    finished_at: new Date().toISOString() };
  if (!g.ranked) Object.assign(rec, { width: g.width, height: g.height, colors: g.colors, moves_left: null, board: g.startBoard });
  records.set(g.id, rec);
  if (g.ranked) players.get(player).games_played++;
}

function board(mode, preset, seed) {
  const best = new Map();
  for (const r of records.values()) {
    if (!r.ranked || r.mode !== mode || r.preset !== preset || r.seed !== seed) continue;
    const cur = best.get(r.player);
    const attempts = (cur ? cur.attempts : 0) + 1;
    if (!cur || r.score > cur.score || (r.score === cur.score && r.moves.length < cur.move_count)) {
      best.set(r.player, { player: r.player, score: r.score, move_count: r.moves.length, duration_ms: r.duration_ms,
        attempts, game_id: r.game_id, finished_at: r.finished_at });
    } else cur.attempts = attempts;
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.move_count - b.move_count)
    .map((e, i) => ({ rank: i + 1, ...e }));
}

function api(url, res) {
  const q = url.searchParams;
  const send = (status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const bad = (status, code, message) => send(status, { error: { code, message } });
  const p = url.pathname;
  if (p === '/api/health') return send(200, { status: 'ok', version: 'mock', uptime_s: 1 });
  if (p === '/api/daily') {
    const now = new Date();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const boards = [];
    for (const [mode, presets] of [['same', ['easy', 'normal', 'hard', 'classic']], ['match3', ['classic', 'big', 'crush']], ['hidden', ['classic', 'large']]]) {
      for (const preset of presets) boards.push({ mode, preset, seed: today() });
    }
    return send(200, { date: today(), resets_in_s: Math.floor((next - now) / 1000), boards });
  }
  if (p === '/api/leaderboard' || p === '/api/leaderboard/around') {
    const mode = q.get('mode'); const preset = q.get('preset'); const seed = q.get('seed');
    if (!mode || !preset || !seed) return bad(400, 'bad_request', 'mode, preset and seed required');
    const all = board(mode, preset, seed);
    let entries;
    if (p.endsWith('around')) {
      const i = all.findIndex((e) => e.player === q.get('player'));
      if (i < 0) return bad(404, 'not_found', 'player not on this board');
      const r = Number(q.get('radius') ?? 5);
      entries = all.slice(Math.max(0, i - r), i + r + 1);
    } else {
      const limit = Number(q.get('limit') ?? 20); const offset = Number(q.get('offset') ?? 0);
      entries = all.slice(offset, offset + limit);
    }
    return send(200, { mode, preset, seed, total: all.length, entries });
  }
  let m = p.match(/^\/api\/players\/([^/]+)$/);
  if (m) {
    const name = decodeURIComponent(m[1]);
    const pl = players.get(name);
    if (!pl) return bad(404, 'not_found', 'no such player');
    const bests = new Map();
    for (const r of records.values()) {
      if (r.player !== name || !r.ranked) continue;
      const k = `${r.mode}/${r.preset}`;
      if (!bests.has(k) || bests.get(k).score < r.score) bests.set(k, { mode: r.mode, preset: r.preset, seed: r.seed, score: r.score, game_id: r.game_id });
    }
    return send(200, { name, created_at: pl.created_at, games_played: pl.games_played, bests: [...bests.values()] });
  }
  m = p.match(/^\/api\/games\/([^/]+)(\/verify)?$/);
  if (m) {
    const rec = records.get(decodeURIComponent(m[1]));
    if (!rec) return bad(404, 'not_found', 'no finished game');
    return send(200, m[2] ? { valid: true, score: rec.score } : rec);
  }
  return bad(404, 'not_found', 'unknown path');
}

function serveStatic(url, res) {
  let rel = decodeURIComponent(url.pathname);
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(staticDir, path.normalize(rel));
  if (!file.startsWith(staticDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    res.end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

function session(conn) {
  let player = null;
  const reply = (msg, fields) => conn.send({ ...fields, id: msg.id });
  const error = (msg, code, message) => conn.send({ type: 'error', id: msg.id, code, message });
  const ownGame = (msg) => {
    const g = games.get(msg.game_id);
    if (!g) throw { code: 'not_found', message: 'unknown game' };
    if (g.owner !== player) throw { code: 'unauthorized', message: 'not yours' };
    return g;
  };
  conn.onmessage = (text) => {
    let msg;
    try { msg = JSON.parse(text); } catch { conn.send({ type: 'error', code: 'bad_request', message: 'not JSON' }); return; }
    try {
      if (msg.type === 'hello') {
        const name = msg.name;
        if (typeof name !== 'string' || name.length < 1 || name.length > 32) throw { code: 'bad_request', message: 'name' };
        const pl = players.get(name);
        if (pl && pl.token !== msg.token) throw { code: 'unauthorized', message: 'name taken' };
        if (!pl) players.set(name, { token: crypto.randomUUID(), created_at: new Date().toISOString(), games_played: 0 });
        player = name;
        reply(msg, { type: 'welcome', player: { id: name, name }, token: players.get(name).token });
        return;
      }
      if (!player) throw { code: 'unauthorized', message: 'hello first' };
      switch (msg.type) {
        case 'ping': reply(msg, { type: 'pong' }); return;
        case 'new_game': {
          const setup = { mode: msg.mode, preset: msg.preset, seed: msg.daily ? today() : (msg.seed || crypto.randomUUID().slice(0, 8)), board: msg.board };
          if (!msg.board && !presetExists(msg.mode, msg.preset)) throw { code: 'bad_request', message: 'preset' };
          if (msg.board) setup.preset = null;
          const g = createGame(setup);
          g.id = `g${nextGame++}`; g.owner = player; g.createdAt = Date.now(); g.startBoard = msg.board || null;
          games.set(g.id, g);
          reply(msg, { type: 'game', game: g.view() });
          return;
        }
        case 'resume': reply(msg, { type: 'game', game: ownGame(msg).view() }); return;
        case 'preview': { const g = ownGame(msg); reply(msg, { type: 'preview', game_id: g.id, ...g.preview(msg.x, msg.y) }); return; }
        case 'hint': { const g = ownGame(msg); if (g.over) throw { code: 'not_allowed', message: 'over' }; reply(msg, { type: 'hint', game_id: g.id, ...g.hint() }); return; }
        case 'undo': { const g = ownGame(msg); g.undo(); reply(msg, { type: 'game', game: g.view() }); return; }
        case 'click': case 'peek': case 'select': case 'unselect': case 'swap': case 'resign': {
          const g = ownGame(msg);
          if (g.over) throw { code: 'not_allowed', message: 'game over' };
          let events;
          if (msg.type === 'resign') { events = []; g.finish(events, 'resigned'); }
          else if (msg.type === 'swap') events = g.apply(['swap', ...msg.a, ...msg.b]);
          else events = g.apply([msg.type, msg.x, msg.y]);
          if (g.over) finishRecord(g, player);
          reply(msg, { type: 'events', game_id: g.id, move_count: g.moves.length, score: g.score, over: g.over, state_hash: g.hash(), events });
          return;
        }
        default: throw { code: 'bad_request', message: `unknown type ${msg.type}` };
      }
    } catch (err) {
      if (err && err.code) error(msg, err.code, err.message);
      else error(msg, 'internal', String(err && err.stack));
    }
  };
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname.startsWith('/api/')) api(url, res);
  else serveStatic(url, res);
});
server.on('upgrade', (req, socket) => {
  if (new URL(req.url, 'http://x').pathname !== '/ws') { socket.destroy(); return; }
  acceptUpgrade(req, socket, session);
});
server.listen(Number(args.port || 0), args.bind || '127.0.0.1', () => {
  process.stdout.write(`tilecrush listening on http://${args.bind || '127.0.0.1'}:${server.address().port}\n`);
});
