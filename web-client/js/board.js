// The board in the DOM: one absolutely positioned tile per filled cell,
// placed with CSS variables (--x, --y) so that moves animate with CSS
// transitions. Input is read on the board itself (pointer position -> cell),
// so it keeps working while tiles move.
//
// Tile attributes for tests and CSS: data-testid="cell", data-x, data-y,
// data-color (colour, or -1 for a hidden back face), data-shown (a colour
// revealed by a peek or a selection).
//
// Keyboard (when the handlers have onActivate): the board takes focus
// (tabindex 0, a focus ring), arrow keys, Home and End move a cursor
// (data-testid="board-cursor", data-x, data-y), Enter or Space activates
// the cursor's cell, Escape cancels, P peeks; every cursor move is described
// in the board's polite live region (data-testid="announce"), which also
// carries the game's announcements (announce()).

import { h } from './dom.js';
import { t } from './i18n.js';
import { symbolSvg, installTileStyles } from './symbols.js';
import { colourText } from './announce.js';
import { keyAction, moveCursor } from './keyboard.js';

const SWIPE_FRACTION = 0.35;

export class BoardView {
  // handlers: onHover(x, y, pointerType) (x null when the pointer left),
  //           onTap(x, y, pointerType), onSwipe(x, y, dx, dy);
  //           keyboard: onActivate(x, y), onCursor(x, y), onCancel(),
  //           onPeekKey(x, y)
  constructor(handlers = {}) {
    installTileStyles();
    this.handlers = handlers;
    this.el = h('div', { class: 'board', testid: 'board', role: 'grid' });
    this.layer = h('div', { class: 'tiles' });
    this.fx = h('div', { class: 'fx' });
    this.el.append(this.layer, this.fx);
    this.width = 0;
    this.height = 0;
    this.tiles = [];
    this.hover = null;
    this.press = null;
    this.cursor = { x: 0, y: 0 };
    this.cursorEl = null;
    this.live = null;
    this.announced = [];
    this.bindInput();
    if (handlers.onActivate) this.bindKeyboard();
  }

  setup(model) {
    this.width = model.width;
    this.height = model.height;
    this.el.style.setProperty('--w', model.width);
    this.el.style.setProperty('--h', model.height);
    this.el.dataset.mode = model.mode;
    this.layer.replaceChildren();
    this.fx.replaceChildren();
    this.tiles = Array.from({ length: model.height }, () => Array(model.width).fill(null));
    for (let y = 0; y < model.height; y++) {
      for (let x = 0; x < model.width; x++) {
        const v = model.board[y][x];
        if (v !== 0) this.tiles[y][x] = this.createTile(x, y, v);
      }
    }
    for (const [k, c] of model.selected) {
      const [x, y] = k.split(',').map(Number);
      this.markSelected(x, y, c);
    }
    if (this.cursorEl) {
      this.fx.append(this.cursorEl);
      this.setCursor(moveCursor(this.cursor, { type: 'stay' }, this.width, this.height));
      this.el.setAttribute('aria-label', t('kb.board', { w: this.width, h: this.height }));
    }
  }

  createTile(x, y, value) {
    const face = h('div', { class: 'face' });
    const el = h('div', { class: 'tile', testid: 'cell' }, face);
    this.setValue(el, value);
    this.place(el, x, y);
    this.layer.append(el);
    return el;
  }

  setValue(el, value) {
    for (const c of [...el.classList]) if (/^c\d+$/.test(c)) el.classList.remove(c);
    const face = el.firstChild;
    face.replaceChildren();
    el.dataset.color = String(value);
    if (value > 0) {
      el.classList.add(`c${value}`);
      el.classList.remove('back');
      face.append(symbolSvg(value));
    } else {
      el.classList.add('back');
    }
  }

  // Shows a colour on a hidden tile (peek or selection) without changing
  // what the board holds.
  show(el, color) {
    if (!el) return;
    const face = el.firstChild;
    for (const c of [...el.classList]) if (/^c\d+$/.test(c)) el.classList.remove(c);
    face.replaceChildren();
    if (color > 0) {
      el.classList.add(`c${color}`);
      face.append(symbolSvg(color));
      el.dataset.shown = String(color);
    } else {
      delete el.dataset.shown;
    }
  }

  place(el, x, y) {
    el.style.setProperty('--x', x);
    el.style.setProperty('--y', y);
    el.dataset.x = String(x);
    el.dataset.y = String(y);
  }

  tileAt(x, y) {
    return (this.tiles[y] && this.tiles[y][x]) || null;
  }

  // Hidden mode: a peeked colour while hovered.
  reveal(x, y, color) {
    const el = this.tileAt(x, y);
    if (!el || el.classList.contains('selected')) return;
    el.classList.add('peeked');
    this.show(el, color);
  }

  conceal(x, y) {
    const el = this.tileAt(x, y);
    if (!el || !el.classList.contains('peeked')) return;
    el.classList.remove('peeked');
    if (!el.classList.contains('selected')) this.show(el, 0);
  }

  markSelected(x, y, color) {
    const el = this.tileAt(x, y);
    if (!el) return;
    el.classList.remove('peeked');
    el.classList.add('selected');
    el.setAttribute('aria-selected', 'true');
    if (color != null) this.show(el, color);
  }

  unmarkSelected(x, y) {
    const el = this.tileAt(x, y);
    if (!el) return;
    el.classList.remove('selected');
    el.removeAttribute('aria-selected');
    if (el.dataset.color === '-1') this.show(el, 0);
  }

  // Marks cells with a class (preview, hint, picked), replacing the last set.
  mark(cls, cells) {
    this.unmark(cls);
    for (const [x, y] of cells) {
      const el = this.tileAt(x, y);
      if (el) el.classList.add(cls);
    }
  }

  unmark(cls) {
    for (const el of this.layer.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
  }

  // A floating "+delta" over a cell position (fractional cells allowed).
  popup(text, x, y, ms = 900) {
    const el = h('div', { class: 'popup', testid: 'score-popup' }, text);
    el.style.setProperty('--x', x);
    el.style.setProperty('--y', y);
    this.fx.append(el);
    setTimeout(() => el.remove(), ms);
  }

  cellFromEvent(e) {
    const r = this.el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const fx = ((e.clientX - r.left) / r.width) * this.width;
    const fy = ((e.clientY - r.top) / r.height) * this.height;
    const x = Math.floor(fx);
    const y = Math.floor(fy);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    return { x, y, fx, fy };
  }

  bindInput() {
    const el = this.el;
    el.addEventListener('pointermove', (e) => this.onMove(e));
    el.addEventListener('pointerleave', (e) => {
      if (!this.press) this.setHover(null, e.pointerType);
    });
    el.addEventListener('pointerdown', (e) => {
      const c = this.cellFromEvent(e);
      if (!c) return;
      this.press = { ...c, id: e.pointerId, swiped: false };
      if (el.setPointerCapture) {
        try { el.setPointerCapture(e.pointerId); } catch { /* synthetic pointer */ }
      }
    });
    el.addEventListener('pointerup', (e) => {
      const press = this.press;
      this.press = null;
      if (!press || press.swiped) return;
      // Too short for a swipe, it is a tap on the tile pressed: a finger
      // that drifted over a border as it lifted did not mean the neighbour.
      if (this.handlers.onTap) this.handlers.onTap(press.x, press.y, e.pointerType || 'mouse');
    });
    el.addEventListener('pointercancel', () => { this.press = null; });
    el.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  bindKeyboard() {
    const el = this.el;
    el.tabIndex = 0;
    el.setAttribute('role', 'application');
    el.setAttribute('aria-roledescription', t('kb.roledesc'));
    this.cursorEl = h('div', { class: 'cursor', testid: 'board-cursor', 'aria-hidden': 'true' });
    this.live = h('div', { class: 'sr-only', testid: 'announce', role: 'status', 'aria-live': 'polite' });
    el.append(this.live);
    el.addEventListener('focus', () => this.relabel());
    // The cursor shows once the keyboard is used, and hides with a pointer.
    el.addEventListener('pointerdown', () => el.classList.remove('kbd'));
    el.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || this.width === 0) return;
      const action = keyAction(e.key);
      if (!action) return;
      e.preventDefault();
      el.classList.add('kbd');
      const { x, y } = this.cursor;
      const hd = this.handlers;
      if (action.type === 'activate') hd.onActivate(x, y);
      else if (action.type === 'cancel') { if (hd.onCancel) hd.onCancel(); }
      else if (action.type === 'peek') { if (hd.onPeekKey) hd.onPeekKey(x, y); }
      else {
        const next = moveCursor(this.cursor, action, this.width, this.height);
        this.setCursor(next);
        this.announce(this.describeCell(next.x, next.y));
        if (hd.onCursor) hd.onCursor(next.x, next.y);
      }
    });
  }

  // The board's own words for assistive technology, in the current language
  // (on focus, and when the language changes).
  relabel() {
    if (!this.cursorEl) return;
    this.el.setAttribute('aria-roledescription', t('kb.roledesc'));
    this.el.setAttribute('aria-label', t('kb.board', { w: this.width, h: this.height }));
  }

  setCursor(c) {
    this.cursor = { x: c.x, y: c.y };
    if (!this.cursorEl) return;
    this.cursorEl.style.setProperty('--x', c.x);
    this.cursorEl.style.setProperty('--y', c.y);
    this.cursorEl.dataset.x = String(c.x);
    this.cursorEl.dataset.y = String(c.y);
  }

  // "Column 3, row 5: colour 2, selected", for the live region.
  describeCell(x, y) {
    const el = this.tileAt(x, y);
    let what;
    if (!el || el.classList.contains('gone')) what = t('kb.empty');
    else {
      const shown = Number(el.dataset.shown || el.dataset.color);
      what = shown > 0 ? colourText(shown, t) : t('kb.hidden');
      if (el.classList.contains('selected')) what += `, ${t('kb.selected')}`;
      if (el.classList.contains('picked')) what += `, ${t('kb.picked')}`;
    }
    return t('kb.cell', { col: x + 1, row: y + 1, what });
  }

  // Says text in the live region (score, refusal, game over, cursor). The
  // same text twice in a row gets a trailing no-break space, so that screen
  // readers announce it again.
  announce(text) {
    if (!this.live || !text) return;
    this.announced.push(text);
    if (this.announced.length > 50) this.announced.shift();
    this.live.textContent = this.live.textContent === text ? `${text}\u00a0` : text;
  }

  // Empties the live region (without announcing anything).
  clearAnnouncement() {
    if (this.live) this.live.textContent = '';
  }

  onMove(e) {
    const c = this.cellFromEvent(e);
    const press = this.press;
    if (press && !press.swiped && c) {
      const dx = c.fx - (press.x + 0.5);
      const dy = c.fy - (press.y + 0.5);
      const adx = Math.abs(dx);
      const ady = Math.abs(dy);
      if (Math.max(adx, ady) > 0.5 + SWIPE_FRACTION) {
        press.swiped = true;
        const dir = adx > ady ? [Math.sign(dx), 0] : [0, Math.sign(dy)];
        if (this.handlers.onSwipe) this.handlers.onSwipe(press.x, press.y, dir[0], dir[1]);
      }
    }
    if (e.pointerType === 'mouse' || e.pointerType === 'pen' || !e.pointerType) {
      this.setHover(c, e.pointerType || 'mouse');
    }
  }

  setHover(c, pointerType) {
    const same = (a, b) => (a && b ? a.x === b.x && a.y === b.y : a === b);
    if (same(this.hover, c)) return;
    this.hover = c ? { x: c.x, y: c.y } : null;
    if (this.handlers.onHover) this.handlers.onHover(c ? c.x : null, c ? c.y : null, pointerType);
  }
}
