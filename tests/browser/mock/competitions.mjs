// Competitions for the mock server: the built-in dailies (today's and
// tomorrow's, one per preset) and organiser competitions, their views,
// leaderboards, results, disqualifications and the close, which ends the
// games still running (game_over, reason closed, pushed to their player).
// A competition's board is dealt from its seed and a random 32-byte key
// (committed to with SHA-256, revealed at the close). In memory, like the
// rest of the mock; organiser tokens live in a file beside --db so that
// `--add-organiser` (a separate run) and the server share them.

import crypto from 'node:crypto';
import fs from 'node:fs';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const MODES = { same: ['easy', 'normal', 'hard', 'classic'], match3: ['classic', 'big', 'crush'], hidden: ['classic', 'large'] };
const DAY_MS = 24 * 3600 * 1000;

const fail = (status, code, message) => { throw { status, code, message }; };
const iso = (ms) => new Date(ms).toISOString();
const dateOf = (ms) => iso(ms).slice(0, 10);

function randomId() {
  const bytes = crypto.randomBytes(10);
  return [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

export class OrganiserStore {
  constructor(dbPath) {
    this.file = `${dbPath || 'mock.db'}.mock-organisers.json`;
  }

  load() {
    try { return JSON.parse(fs.readFileSync(this.file, 'utf8')); } catch { return {}; }
  }

  add(name) {
    const all = this.load();
    const token = crypto.randomBytes(16).toString('hex');
    all[name] = crypto.createHash('sha256').update(token).digest('hex');
    fs.writeFileSync(this.file, JSON.stringify(all));
    return token;
  }

  // The organiser a bearer token belongs to, or null.
  who(token) {
    if (!token) return null;
    const digest = crypto.createHash('sha256').update(token).digest('hex');
    const hit = Object.entries(this.load()).find(([, d]) => d === digest);
    return hit ? hit[0] : null;
  }
}

export class Competitions {
  // records: game id -> finished record; games: id -> live game;
  // finish(game, player): stores a finished game; push(player, msg).
  constructor({ records, games, finish, push }) {
    this.records = records;
    this.games = games;
    this.finish = finish;
    this.push = push;
    this.all = new Map();
    this.started = new Map();   // `${id}\n${player}` -> attempts started
    this.dq = new Map();        // id -> Map(player -> reason)
    this.timer = setInterval(() => this.closeDue(), 200);
  }

  make(fields) {
    const key = crypto.randomBytes(32);
    const c = { rules_version: 2, unlisted: false, organiser: null, daily: false, ...fields,
      keyHex: key.toString('hex'), commitment: crypto.createHash('sha256').update(key).digest('hex'), closedDone: false };
    this.all.set(c.id, c);
    this.dq.set(c.id, new Map());
    return c;
  }

  // Today's and tomorrow's dailies exist from the first time they are asked
  // for; the same board for a whole UTC day.
  dailies(dayMs) {
    const date = dateOf(dayMs);
    const start = Date.parse(`${date}T00:00:00.000Z`);
    const out = [];
    for (const [mode, presets] of Object.entries(MODES)) {
      for (const preset of presets) {
        const id = `daily-${date}-${mode}-${preset}`;
        const ranked = mode === 'same' ? null : 1;
        out.push(this.all.get(id) || this.make({ id, name: `Daily ${date} ${mode} ${preset}`, mode, preset, seed: date,
          daily: true, opens: start, closes: start + DAY_MS, attempts: ranked, counts: ranked ? 'first' : 'best' }));
      }
    }
    return out;
  }

  ensureDailies() {
    this.dailies(Date.now());
    this.dailies(Date.now() + DAY_MS);
  }

  stateOf(c, now = Date.now()) {
    return now < c.opens ? 'upcoming' : now < c.closes ? 'open' : 'closed';
  }

  attemptsUsed(c, player) {
    return this.started.get(`${c.id}\n${player}`) || 0;
  }

  view(c, player) {
    const now = Date.now();
    const state = this.stateOf(c, now);
    const v = { id: c.id, name: c.name, mode: c.mode, preset: c.preset, seed: c.seed, daily: c.daily,
      opens_at: iso(c.opens), closes_at: iso(c.closes), state,
      opens_in_s: Math.max(0, Math.floor((c.opens - now) / 1000)),
      closes_in_s: Math.max(0, Math.floor((c.closes - now) / 1000)),
      attempts: c.attempts, counts: c.counts, unlisted: c.unlisted, organiser: c.organiser,
      rules_version: c.rules_version, commitment: c.commitment, key: state === 'closed' ? c.keyHex : null };
    if (player) {
      v.attempts_used = this.attemptsUsed(c, player);
      v.attempts_left = c.attempts == null ? null : Math.max(0, c.attempts - v.attempts_used);
    }
    return v;
  }

  get(id) {
    this.ensureDailies();
    const c = this.all.get(id);
    if (!c) fail(404, 'not_found', 'no such competition');
    return c;
  }

  list(state, limit) {
    this.ensureDailies();
    let all = [...this.all.values()].filter((c) => !c.unlisted);
    if (state) all = all.filter((c) => this.stateOf(c) === state);
    return all.slice(0, limit);
  }

  create(body, organiser) {
    const b = body && typeof body === 'object' ? body : fail(400, 'bad_request', 'the body must be a JSON object');
    const name = typeof b.name === 'string' ? b.name : '';
    if ([...name].length < 1 || [...name].length > 64 || /\p{Cc}/u.test(name)) fail(400, 'bad_request', 'name must have 1 to 64 characters');
    if (!MODES[b.mode] || !MODES[b.mode].includes(b.preset)) fail(400, 'bad_request', 'unknown mode or preset');
    const opens = Date.parse(b.opens_at);
    const closes = Date.parse(b.closes_at);
    if (!/Z$/.test(String(b.opens_at)) || Number.isNaN(opens)) fail(400, 'bad_request', 'opens_at must be ISO 8601 UTC');
    if (!/Z$/.test(String(b.closes_at)) || Number.isNaN(closes)) fail(400, 'bad_request', 'closes_at must be ISO 8601 UTC');
    if (closes <= opens) fail(400, 'bad_request', 'closes_at must be after opens_at');
    if (closes <= Date.now()) fail(400, 'bad_request', 'closes_at is in the past');
    if (b.attempts != null && !(Number.isInteger(b.attempts) && b.attempts >= 1 && b.attempts <= 100)) {
      fail(400, 'bad_request', 'attempts must be an integer from 1 to 100 or null');
    }
    if (!['best', 'first'].includes(b.counts)) fail(400, 'bad_request', 'counts must be best or first');
    if (typeof b.unlisted !== 'boolean') fail(400, 'bad_request', 'unlisted must be a boolean');
    const id = randomId();
    return this.make({ id, name, mode: b.mode, preset: b.preset, seed: id, opens, closes,
      attempts: b.attempts ?? null, counts: b.counts, unlisted: b.unlisted, organiser });
  }

  // new_game with `competition` (or `daily`): the setup of the attempt.
  // A daily past its ranked attempts is practice on the same board.
  startGame(msg, player) {
    let c;
    if (msg.daily) {
      this.ensureDailies();
      c = this.all.get(`daily-${dateOf(Date.now())}-${msg.mode}-${msg.preset}`);
      if (!c) fail(400, 'bad_request', 'no daily board for this preset');
    } else {
      c = this.all.get(msg.competition) || (this.ensureDailies(), this.all.get(msg.competition));
      if (!c) fail(404, 'not_found', 'no such competition');
    }
    const state = this.stateOf(c);
    if (state === 'upcoming') fail(400, 'not_allowed', 'the competition has not opened yet');
    if (state === 'closed') fail(400, 'not_allowed', 'the competition is closed');
    const used = this.attemptsUsed(c, player);
    let ranked = true;
    if (c.attempts != null && used >= c.attempts) {
      if (!msg.daily) fail(400, 'not_allowed', 'no attempts left');
      ranked = false;
    }
    if (ranked) this.started.set(`${c.id}\n${player}`, used + 1);
    return { setup: { mode: c.mode, preset: c.preset, seed: c.seed, dealSeed: `${c.seed}:${c.keyHex}` },
      extra: { competition: c.id, attempt: ranked ? used + 1 : null, commitment: c.commitment, ranked } };
  }

  closeDue() {
    const now = Date.now();
    for (const c of this.all.values()) {
      if (c.closedDone || now < c.closes) continue;
      c.closedDone = true;
      for (const g of this.games.values()) {
        if (g.competition !== c.id || g.over) continue;
        const events = [];
        g.finish(events, 'closed');
        if (g.endedAt === null) g.endedAt = now;
        this.finish(g, g.owner);
        this.push(g.owner, { type: 'events', game_id: g.id, move_count: g.moves.length, score: g.score, over: true,
          state_hash: g.hash(), events });
      }
    }
  }

  // Ranked finished attempts of a competition, in finishing order.
  attemptsOf(c) {
    return [...this.records.values()].filter((r) => r.competition === c.id && r.ranked);
  }

  // The standings: per player the best attempt (or the first finished),
  // disqualified players left out.
  board(c) {
    this.closeDue();
    const dq = this.dq.get(c.id);
    const per = new Map();
    for (const r of this.attemptsOf(c)) {
      if (dq.has(r.player)) continue;
      const cur = per.get(r.player);
      const attempts = (cur ? cur.attempts : 0) + 1;
      const better = !cur || (c.counts === 'best'
        && (r.score > cur.score || (r.score === cur.score && r.moves.length < cur.move_count)));
      if (better) {
        per.set(r.player, { player: r.player, score: r.score, move_count: r.moves.length, duration_ms: r.duration_ms,
          attempts, game_id: r.game_id, finished_at: r.finished_at, moves: r.moves });
      } else cur.attempts = attempts;
    }
    return [...per.values()].sort((a, b) => b.score - a.score || a.move_count - b.move_count)
      .map((e, i) => ({ rank: i + 1, ...e }));
  }

  leaderboard(c, entries, total) {
    return { competition: c.id, mode: c.mode, preset: c.preset, seed: c.seed, total,
      entries: entries.map(({ moves, ...e }) => e) };
  }

  results(c) {
    this.closeDue();
    const closed = this.stateOf(c) === 'closed';
    const entries = this.board(c).map((e) => ({ rank: e.rank, player: e.player, score: e.score,
      move_count: e.move_count, duration_ms: e.duration_ms, game_id: e.game_id, moves: closed ? e.moves : null, flags: [] }));
    for (const [player, reason] of this.dq.get(c.id)) {
      const mine = this.attemptsOf(c).filter((r) => r.player === player).sort((a, b) => b.score - a.score)[0];
      entries.push({ rank: null, player, score: mine ? mine.score : 0, move_count: mine ? mine.moves.length : 0,
        duration_ms: mine ? mine.duration_ms : null, game_id: mine ? mine.game_id : null,
        moves: closed && mine ? mine.moves : null, flags: ['disqualified'], reason });
    }
    return { competition: this.view(c), entries };
  }

  csv(c) {
    const q = (v) => (v == null ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
    const lines = ['rank,player,score,move_count,duration_ms,game_id,flags,reason'];
    for (const e of this.results(c).entries) {
      lines.push([e.rank, e.player, e.score, e.move_count, e.duration_ms, e.game_id, e.flags.join(' '), e.reason].map(q).join(','));
    }
    return `${lines.join('\n')}\n`;
  }

  disqualify(c, body, organiser) {
    if (c.organiser !== organiser) fail(403, 'forbidden', 'not the organiser of this competition');
    const player = body && typeof body.player === 'string' ? body.player : '';
    if (!player) fail(400, 'bad_request', 'player required');
    this.dq.get(c.id).set(player, typeof body.reason === 'string' && body.reason ? body.reason : 'disqualified');
    return { competition: c.id, player, disqualified: true };
  }

  // GameView fields of an attempt (null outside competitions).
  static gameFields(g) {
    return { competition: g.competition ?? null, attempt: g.attempt ?? null, commitment: g.commitment ?? null };
  }
}
