// t(key, vars) over the dictionaries of lang/ (English and Japanese): fills
// {name} placeholders; the choice is remembered in localStorage.
//
// The dictionaries are data, JSON modules (lang/README.md: their sections
// and how to add a string): en.json is the reference, ja.json has every one
// of its keys (tests/browser/unit/i18n.test.mjs checks it). A JSON module
// must be served as application/json (server/src/net/static_files.cpp).

import en from './lang/en.json' with { type: 'json' };
import ja from './lang/ja.json' with { type: 'json' };

const STORE = 'tilecrush.lang';

export const DICTS = { en, ja };
const listeners = new Set();

function initialLang() {
  try {
    const stored = localStorage.getItem(STORE);
    if (stored && DICTS[stored]) return stored;
  } catch { /* storage blocked: fall through */ }
  const nav = (globalThis.navigator && navigator.language) || 'en';
  return nav.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

let lang = initialLang();

export function getLang() { return lang; }

// The variables that hold a name someone typed (a player's, a host's, a
// competition's), and the scripts written right to left (Hebrew, Arabic,
// Syriac, Thaana, N'Ko... and their presentation forms).
const NAME_VARS = new Set(['player', 'name', 'host']);
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

// A name with right-to-left letters, set in a sentence, is isolated (U+2068
// FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE): else the
// sentence's own words and numbers around it are reordered with it
// ("Winner: (277) מנצח" for "Winner: מנצח (277)").
function filled(name, value) {
  const text = String(value);
  return NAME_VARS.has(name) && RTL.test(text) ? `\u2068${text}\u2069` : text;
}

export function t(k, vars = {}) {
  const s = DICTS[lang][k] ?? en[k] ?? k;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? filled(name, vars[name]) : m));
}

// Re-translates static elements marked with data-i18n (text) or
// data-i18n-placeholder, then tells the pages to redraw their own text.
export function translateTree(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  document.documentElement.lang = lang;
}

export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  try { localStorage.setItem(STORE, next); } catch { /* not remembered */ }
  translateTree();
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// The text of a count: where `count` is 1 and the catalogues have the key
// with "1" appended ("share.moves1": "1 move"), that one, else the key's
// own ("{n} moves"). Both are filled from `vars`.
export function countKey(k, count) {
  return count === 1 && `${k}1` in en ? `${k}1` : k;
}

export function tn(k, count, vars = {}) {
  return t(countKey(k, count), vars);
}

// A board's count of players, singular for one: "1 player", "12 players".
export function playersText(total) {
  return tn('lb.total', total, { total });
}

// Dates and times in the reader's time zone, in one style on every page
// ("28 Nov 2026, 08:39 UTC"; Japanese in its own order).
const DAY_OPTS = { year: 'numeric', month: 'short', day: 'numeric' };
const DATE_OPTS = { ...DAY_OPTS, hour: '2-digit', minute: '2-digit' };
// The locale dates are written in, by the site's language.
export const dateLocale = () => (lang === 'ja' ? 'ja-JP' : 'en-GB');

export function dateFormat(withZone, withSeconds = false) {
  const opts = { ...DATE_OPTS, ...(withZone ? { timeZoneName: 'short' } : {}), ...(withSeconds ? { second: '2-digit' } : {}) };
  return new Intl.DateTimeFormat(dateLocale(), opts);
}

// An instant, with its zone; what is not a date is shown as it came.
export function formatWhen(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso ?? '') : dateFormat(true).format(d);
}

// The day of an instant ("28 Nov 2026").
export function formatDay(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso ?? '');
  return new Intl.DateTimeFormat(dateLocale(), DAY_OPTS).format(d);
}

// 3723 s -> "1:02:03"; 63 s -> "1:03".
// A game's time from its milliseconds; with `tenths` (hidden colours,
// where the shorter time breaks a tie of scores) to the tenth of a second,
// so that two rows of one score show why one ranks first.
export function formatGameTime(ms, { tenths = false } = {}) {
  const whole = formatDuration(ms / 1000);
  return tenths ? `${whole}.${Math.floor(Math.max(0, ms) / 100) % 10}` : whole;
}

export function formatDuration(totalSeconds) {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
