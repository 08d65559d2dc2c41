// Plays protocol events on a BoardView, one after the other. Every function
// updates the view's tile table at once and returns a promise that resolves
// when the motion has had its time. Durations scale with `speed`
// (0: no waiting at all, used by tests; stored in localStorage).

import { h, sleep } from './dom.js';

const STORE = 'tilecrush.animSpeed';
const BASE = { swap: 160, remove: 220, fall: 230, shift: 200, spawn: 260, bounce: 130 };

function initialSpeed() {
  try {
    const v = localStorage.getItem(STORE);
    if (v != null && v !== '' && Number.isFinite(Number(v))) return Number(v);
  } catch { /* default */ }
  if (globalThis.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches) return 0.3;
  return 1;
}

let speed = initialSpeed();

export function setSpeed(v) {
  speed = Math.max(0, Number(v) || 0);
  try { localStorage.setItem(STORE, String(speed)); } catch { /* not remembered */ }
}

export function getSpeed() { return speed; }

function ms(kind) {
  return Math.round(BASE[kind] * speed);
}

async function motion(view, kind) {
  const d = ms(kind);
  view.el.style.setProperty('--move-ms', `${d}ms`);
  if (d > 0) await sleep(d + 20);
}

// Forces the browser to take the current position as the start of a transition.
function flush(el) {
  return el.getBoundingClientRect();
}

export async function animateSwap(view, a, b) {
  const ta = view.tileAt(a[0], a[1]);
  const tb = view.tileAt(b[0], b[1]);
  view.tiles[a[1]][a[0]] = tb;
  view.tiles[b[1]][b[0]] = ta;
  if (ta) view.place(ta, b[0], b[1]);
  if (tb) view.place(tb, a[0], a[1]);
  await motion(view, 'swap');
}

// An invalid swap: both tiles move half way toward each other and back.
export async function animateBounce(view, a, b) {
  const ta = view.tileAt(a[0], a[1]);
  const tb = view.tileAt(b[0], b[1]);
  const mid = (p, q) => [p[0] + (q[0] - p[0]) * 0.45, p[1] + (q[1] - p[1]) * 0.45];
  const set = (el, p) => {
    if (!el) return;
    el.style.setProperty('--x', p[0]);
    el.style.setProperty('--y', p[1]);
  };
  for (const el of [ta, tb]) if (el) el.classList.add('bouncing');
  set(ta, mid(a, b));
  set(tb, mid(b, a));
  await motion(view, 'bounce');
  set(ta, a);
  set(tb, b);
  await motion(view, 'bounce');
  for (const el of [ta, tb]) if (el) el.classList.remove('bouncing');
}

export async function animateRemove(view, cells) {
  const els = [];
  for (const [x, y] of cells) {
    const el = view.tileAt(x, y);
    if (!el) continue;
    view.tiles[y][x] = null;
    el.classList.add('gone');
    els.push(el);
  }
  await motion(view, 'remove');
  for (const el of els) el.remove();
}

export function showScore(view, delta, cells) {
  if (!cells || cells.length === 0) return;
  const cx = cells.reduce((s, c) => s + c[0], 0) / cells.length;
  const cy = cells.reduce((s, c) => s + c[1], 0) / cells.length;
  const text = delta >= 0 ? `+${delta}` : String(delta);
  view.popup(text, cx, cy, Math.max(400, 900 * speed));
}

export async function animateFall(view, moves) {
  const els = moves.map(([x, from]) => view.tileAt(x, from));
  for (const [x, from] of moves) view.tiles[from][x] = null;
  moves.forEach(([x, , to], i) => {
    view.tiles[to][x] = els[i];
    if (els[i]) view.place(els[i], x, to);
  });
  await motion(view, 'fall');
}

export async function animateShift(view, moves) {
  const cols = moves.map(([from]) => view.tiles.map((row) => row[from]));
  for (const [from] of moves) for (const row of view.tiles) row[from] = null;
  moves.forEach(([, to], i) => {
    cols[i].forEach((el, y) => {
      view.tiles[y][to] = el;
      if (el) view.place(el, to, y);
    });
  });
  await motion(view, 'shift');
}

export async function animateSpawn(view, cells) {
  const perColumn = new Map();
  for (const [x] of cells) perColumn.set(x, (perColumn.get(x) || 0) + 1);
  const created = [];
  for (const [x, y, c] of cells) {
    const old = view.tileAt(x, y);
    if (old) old.remove();
    const el = view.createTile(x, y, c);
    el.style.setProperty('--y', y - perColumn.get(x) - 1);
    el.classList.add('spawned');
    view.tiles[y][x] = el;
    created.push([el, x, y]);
  }
  if (created.length) flush(view.layer);
  for (const [el, x, y] of created) view.place(el, x, y);
  await motion(view, 'spawn');
  for (const [el] of created) el.classList.remove('spawned');
}

// Plays one event's board motion. Score pop-ups use the cells of the last
// remove, kept in `ctx.lastRemoved`.
export async function animateEvent(view, ev, ctx = {}) {
  switch (ev.kind) {
    case 'swap': return animateSwap(view, ev.a, ev.b);
    case 'remove':
      ctx.lastRemoved = ev.cells;
      return animateRemove(view, ev.cells);
    case 'score':
      if (ctx.lastRemoved) showScore(view, ev.delta, ctx.lastRemoved);
      ctx.lastRemoved = null;
      return undefined;
    case 'fall': return animateFall(view, ev.moves);
    case 'shift': return animateShift(view, ev.moves);
    case 'spawn': return animateSpawn(view, ev.cells);
    case 'select': view.markSelected(ev.x, ev.y, ev.color); return undefined;
    case 'unselect': view.unmarkSelected(ev.x, ev.y); return undefined;
    default: return undefined;
  }
}

export function banner(view, text) {
  const el = h('div', { class: 'banner' }, text);
  view.fx.append(el);
  setTimeout(() => el.remove(), 1200);
}
