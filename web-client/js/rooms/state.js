// Pure helpers of the rooms page (protocol.md "Rooms" and protocol/README.md
// "Additions: Rooms"): share links, the member's role from a join answer,
// live progress merged into the room view, the scoreboard order, and which
// pushes belong to a room. No DOM: unit-tested in node.

// Room codes are matched ignoring ASCII case; spaces and dashes a player
// may type (or paste) around them are dropped.
export function normalizeCode(text) {
  return String(text ?? '').replace(/[\s-]+/g, '').toUpperCase().slice(0, 64);
}

// A code a room can have (protocol.md, "Rooms"): 6 characters of
// ABCDEFGHJKMNPQRSTVWXYZ23456789, once normalized. Anything else is no
// room's, and is not asked for.
export function validCode(text) {
  return /^[ABCDEFGHJKMNPQRSTVWXYZ2-9]{6}$/.test(normalizeCode(text));
}

export function sameCode(a, b) {
  return !!a && !!b && normalizeCode(a) === normalizeCode(b);
}

// The address that opens a room: as a player, or as a spectator (watch).
export function roomUrl(code, { watch = false } = {}) {
  const q = new URLSearchParams({ view: 'rooms', room: code });
  if (watch) q.set('watch', '1');
  return `/?${q}`;
}

// The role the server gave us, from the `room` answer to join_room (or
// create_room). Members keep their role whatever `as` they send, so the
// answer decides: a player back in a started room gets `game`, a spectator
// of a started room gets `games`; in the lobby, players are listed by name.
export function roleFromAnswer(answer, myName) {
  if (answer.game) return 'player';
  if (answer.games) return 'spectator';
  const room = answer.room || {};
  const listed = (room.players || []).some((p) => p.name === myName);
  return listed && room.state === 'lobby' ? 'player' : 'spectator';
}

// A copy of the room view with one player's live progress applied. Progress
// of one room arrives in order, so the newest message wins; a player the
// view does not list yet is left alone (the next `room` push lists them).
export function applyProgress(room, msg) {
  if (!room || !Array.isArray(room.players)) return room;
  let changed = false;
  const players = room.players.map((p) => {
    if (p.name !== msg.player) return p;
    changed = true;
    return { ...p, score: msg.score, move_count: msg.move_count, over: !!msg.over };
  });
  return changed ? { ...room, players } : room;
}

// Players for display: joining order in the lobby; once games exist, the
// race order of the standings (score descending, then fewer moves, then name).
export function scoreboard(room) {
  const players = [...((room && room.players) || [])];
  if (!room || room.state === 'lobby') return players;
  return players.sort((a, b) => (b.score - a.score) || (a.move_count - b.move_count)
    || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// The players a started room's table marks "left" (views.js, statusText):
// gone and over. The standings mark them too.
export function leftNames(room) {
  if (!room || room.state === 'lobby') return new Set();
  return new Set((room.players || []).filter((p) => !p.connected && p.over).map((p) => p.name));
}

// Whether an address's parameters ({view, room, watch, as}) ask to watch a
// room rather than play in it.
export function watchesRoom(params) {
  return params.watch === '1' || params.as === 'spectator';
}

// The standings of room_finished with `me` marked; ranks are the server's
// (tied players share a rank: 1, 1, 3).
export function standingRows(standings, me) {
  return (standings || []).map((s) => ({ ...s, me: s.player === me }));
}

export const ROOM_PUSHES = new Set(['room', 'room_started', 'room_progress', 'room_events', 'room_game', 'room_finished']);

// The room code a pushed message is about, or null when it is not a room push.
export function pushCode(msg) {
  if (!msg || !ROOM_PUSHES.has(msg.type)) return null;
  if (msg.type === 'room') return msg.room ? msg.room.code : null;
  return msg.code ?? null;
}

// Remembers the room this tab is in, so that the rooms page can offer to
// go back to it (the room's own address rejoins it after a reload).
const LAST_KEY = 'tilecrush.room';

export function rememberRoom(code, watch) {
  try { sessionStorage.setItem(LAST_KEY, JSON.stringify({ code, watch: !!watch })); } catch { /* not kept */ }
}

export function forgetRoom() {
  try { sessionStorage.removeItem(LAST_KEY); } catch { /* nothing kept */ }
}

export function lastRoom() {
  try {
    const v = JSON.parse(sessionStorage.getItem(LAST_KEY) || 'null');
    return v && typeof v.code === 'string' ? v : null;
  } catch {
    return null;
  }
}
