#!/usr/bin/env node
// A mock of tilecrush_server for developing the web client while the real
// server is being written: the same command line, the same "listening" line,
// the protocol.md messages, and the HTTP API, all in memory (--db ignored).
// Run the browser tests against it with
//   TILECRUSH_SERVER=tests/browser/mock/server.mjs npm test
// It is not the product: its boards come from its own generator.
// Competitions (competitions.mjs): `--db PATH --add-organiser NAME` prints
// "organiser NAME token TOKEN" and exits, as the real server does.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { acceptUpgrade } from './ws.mjs';
import { createGame, presetExists } from './rules.mjs';
import { Competitions, OrganiserStore } from './competitions.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const organisers = new OrganiserStore(args.db);
if (args['add-organiser']) {
  process.stdout.write(`organiser ${args['add-organiser']} token ${organisers.add(args['add-organiser'])}\n`);
  process.exit(0);
}
const staticDir = path.resolve(args.static || '.');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

const players = new Map();   // name -> {token, created_at, games_played}
const games = new Map();     // id -> game
const records = new Map();   // id -> finished game record
const conns = new Map();     // player name -> Set of connections
let nextGame = 1;

const today = () => new Date().toISOString().slice(0, 10);

function finishRecord(g, player) {
  const rec = { game_id: g.id, player, mode: g.mode, preset: g.preset, seed: g.seed, ranked: g.ranked,
    rules_version: g.competition ? 2 : 1, moves: g.moves, score: g.score, duration_ms: Date.now() - g.createdAt,
    finished_at: new Date().toISOString(), competition: g.competition ?? null };
  if (!g.ranked) Object.assign(rec, { width: g.width, height: g.height, colors: g.colors, moves_left: null, board: g.startBoard });
  records.set(g.id, rec);
  if (g.ranked) players.get(player).games_played++;
}

const competitions = new Competitions({
  records, games, finish: finishRecord,
  // TILECRUSH_MOCK_SILENT_CLOSE=1: the close ends games without telling
  // their players (the client must notice by itself).
  push: (player, msg) => {
    if (process.env.TILECRUSH_MOCK_SILENT_CLOSE === '1') return;
    for (const c of conns.get(player) || []) c.send(msg);
  },
});
const viewOf = (g) => ({ ...g.view(), ...Competitions.gameFields(g) });

function board(mode, preset, seed) {
  const best = new Map();
  for (const r of records.values()) {
    if (!r.ranked || r.competition || r.mode !== mode || r.preset !== preset || r.seed !== seed) continue;
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

function api(url, res, req, body) {
  const q = url.searchParams;
  const send = (status, answer) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer));
  };
  send.raw = (status, type, text) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(text);
  };
  const bad = (status, code, message) => send(status, { error: { code, message } });
  const p = url.pathname;
  if (p === '/api/health') return send(200, { status: 'ok', version: 'mock', uptime_s: 1 });
  if (p === '/api/daily') {
    const now = new Date();
    const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const board = (c) => ({ mode: c.mode, preset: c.preset, seed: c.seed, competition: c.id, commitment: c.commitment });
    const tomorrow = new Date(next).toISOString().slice(0, 10);
    return send(200, { date: today(), resets_in_s: Math.floor((next - now) / 1000),
      boards: competitions.dailies(now.getTime()).map(board),
      tomorrow: { date: tomorrow, boards: competitions.dailies(next).map(board) } });
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
      if (!bests.has(k) || bests.get(k).score < r.score) bests.set(k, { mode: r.mode, preset: r.preset, seed: r.seed, score: r.score, game_id: r.game_id, competition: r.competition });
    }
    return send(200, { name, created_at: pl.created_at, games_played: pl.games_played, bests: [...bests.values()] });
  }
  m = p.match(/^\/api\/games\/([^/]+)(\/verify)?$/);
  if (m) {
    const rec = records.get(decodeURIComponent(m[1]));
    if (!rec) return bad(404, 'not_found', 'no finished game');
    if (m[2]) return send(200, { valid: true, score: rec.score });
    const secret = rec.competition && competitions.stateOf(competitions.get(rec.competition)) !== 'closed';
    return send(200, secret ? { ...rec, moves: null } : rec);
  }
  if (p.startsWith('/api/competitions')) return competitionsApi(url, req, body, send, bad);
  return bad(404, 'not_found', 'unknown path');
}

function competitionsApi(url, req, body, send, bad) {
  const q = url.searchParams;
  const parts = url.pathname.split('/').slice(3).map(decodeURIComponent);
  const bearer = (req.headers.authorization || '').replace(/^Bearer\s+/i, '');
  const organiser = () => organisers.who(bearer) || bad401();
  const bad401 = () => { throw { status: 401, code: 'unauthorized', message: 'missing or unknown organiser token' }; };
  const json = () => {
    try { return JSON.parse(body || ''); } catch { throw { status: 400, code: 'bad_request', message: 'the body is not JSON' }; }
  };
  const int = (name, dflt, lo, hi) => {
    if (!q.has(name) || q.get(name) === '') return dflt;
    const v = Number(q.get(name));
    if (!Number.isInteger(v) || v < lo || v > hi) throw { status: 400, code: 'bad_request', message: `${name} must be an integer from ${lo} to ${hi}` };
    return v;
  };
  try {
    if (parts.length === 0) {
      if (req.method === 'POST') {
        const who = organiser();
        return send(201, competitions.view(competitions.create(json(), who)));
      }
      const state = q.get('state');
      if (state && !['open', 'upcoming', 'closed'].includes(state)) return bad(400, 'bad_request', 'state must be open, upcoming or closed');
      return send(200, { competitions: competitions.list(state, int('limit', 50, 1, 100)).map((c) => competitions.view(c)) });
    }
    const c = competitions.get(parts[0]);
    const rest = parts.slice(1).join('/');
    if (rest === '') return send(200, competitions.view(c, q.get('player') || null));
    if (rest === 'leaderboard') {
      const all = competitions.board(c);
      const offset = int('offset', 0, 0, 1e9);
      return send(200, competitions.leaderboard(c, all.slice(offset, offset + int('limit', 20, 1, 100)), all.length));
    }
    if (rest === 'leaderboard/around') {
      const all = competitions.board(c);
      const i = all.findIndex((e) => e.player === q.get('player'));
      if (i < 0) return bad(404, 'not_found', 'player not on this board');
      const r = int('radius', 5, 0, 50);
      return send(200, competitions.leaderboard(c, all.slice(Math.max(0, i - r), i + r + 1), all.length));
    }
    if (rest === 'results') {
      if (q.get('format') === 'csv') {
        send.raw(200, 'text/csv; charset=utf-8', competitions.csv(c));
        return undefined;
      }
      return send(200, competitions.results(c));
    }
    if (rest === 'disqualify' && req.method === 'POST') {
      const who = organiser();
      return send(200, competitions.disqualify(c, json(), who));
    }
    return bad(404, 'not_found', 'unknown path');
  } catch (err) {
    if (err && err.status) return bad(err.status, err.code, err.message);
    throw err;
  }
}

function serveStatic(url, res) {
  let rel = decodeURIComponent(url.pathname);
  if (rel.endsWith('/')) rel += 'index.html';
  const file = path.join(staticDir, path.normalize(rel));
  if (!file.startsWith(staticDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    // As the real server: an address with no extension gets the client's
    // page with 404, which says so; a missing file, the plain text.
    const last = rel.slice(rel.lastIndexOf('/') + 1);
    if (!last.includes('.')) {
      res.writeHead(404, { 'Content-Type': TYPES['.html'] });
      fs.createReadStream(path.join(staticDir, 'index.html')).pipe(res);
      return;
    }
    res.writeHead(404);
    res.end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

function session(conn) {
  let player = null;
  conn.onclose = () => { if (player && conns.has(player)) conns.get(player).delete(conn); };
  const reply = (msg, fields) => conn.send({ ...fields, id: msg.id });
  const error = (msg, code, message) => conn.send({ type: 'error', id: msg.id, code, message });
  const ownGame = (msg) => {
    const g = games.get(msg.game_id);
    if (!g) throw { code: 'not_found', message: 'no such game' };
    if (g.owner !== player) throw { code: 'unauthorized', message: 'not your game' };
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
        if (!conns.has(name)) conns.set(name, new Set());
        conns.get(name).add(conn);
        // The mock keeps no list of running attempts (protocol.md, "Running attempts").
        reply(msg, { type: 'welcome', player: { id: name, name }, token: players.get(name).token, running: [] });
        return;
      }
      if (!player) throw { code: 'unauthorized', message: 'hello first' };
      switch (msg.type) {
        case 'ping': reply(msg, { type: 'pong' }); return;
        case 'running': reply(msg, { type: 'running', running: [] }); return;
        case 'new_game': {
          if (msg.competition != null || msg.daily) {
            const { setup, extra } = competitions.startGame(msg, player);
            const g = createGame(setup);
            Object.assign(g, extra);
            g.id = `g${nextGame++}`; g.owner = player; g.createdAt = Date.now(); g.startBoard = null;
            games.set(g.id, g);
            reply(msg, { type: 'game', game: viewOf(g) });
            return;
          }
          const setup = { mode: msg.mode, preset: msg.preset, seed: msg.daily ? today() : (msg.seed || crypto.randomUUID().slice(0, 8)), board: msg.board };
          if (!msg.board && !presetExists(msg.mode, msg.preset)) throw { code: 'bad_request', message: 'preset' };
          if (msg.board) setup.preset = null;
          const g = createGame(setup);
          g.id = `g${nextGame++}`; g.owner = player; g.createdAt = Date.now(); g.startBoard = msg.board || null;
          games.set(g.id, g);
          reply(msg, { type: 'game', game: viewOf(g) });
          return;
        }
        case 'resume': reply(msg, { type: 'game', game: viewOf(ownGame(msg)) }); return;
        case 'preview': { const g = ownGame(msg); reply(msg, { type: 'preview', game_id: g.id, ...g.preview(msg.x, msg.y) }); return; }
        case 'hint': { const g = ownGame(msg); if (g.over) throw { code: 'not_allowed', message: 'the game is over' }; reply(msg, { type: 'hint', game_id: g.id, ...g.hint() }); return; }
        case 'undo': { const g = ownGame(msg); g.undo(); reply(msg, { type: 'game', game: viewOf(g) }); return; }
        case 'click': case 'peek': case 'select': case 'unselect': case 'swap': case 'resign': {
          const g = ownGame(msg);
          if (g.over) throw { code: 'not_allowed', message: 'the game is over' };
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
  if (!url.pathname.startsWith('/api/')) { serveStatic(url, res); return; }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => { body += d; });
  req.on('end', () => api(url, res, req, body));
});
server.on('upgrade', (req, socket) => {
  if (new URL(req.url, 'http://x').pathname !== '/ws') { socket.destroy(); return; }
  acceptUpgrade(req, socket, session);
});
server.listen(Number(args.port || 0), args.bind || '127.0.0.1', () => {
  process.stdout.write(`tilecrush listening on http://${args.bind || '127.0.0.1'}:${server.address().port}\n`);
});
