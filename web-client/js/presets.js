// Modes and their presets (rules.md), in display order.

export const MODES = ['same', 'match3', 'hidden'];

export const PRESETS = {
  same: ['easy', 'normal', 'hard', 'classic'],
  match3: ['classic', 'big', 'crush'],
  hidden: ['classic', 'large'],
};

export function validBoard(mode, preset) {
  return !!(PRESETS[mode] && PRESETS[mode].includes(preset));
}

// A text the server takes as a seed, or a game or competition id
// (protocol.md, "Fields"): 1-64 code points, no control character (C0,
// DEL, C1). A link with anything else is refused before it is asked.
export function validLabel(text) {
  if (typeof text !== 'string') return false;
  const n = [...text].length;
  return n >= 1 && n <= 64 && !/[\u0000-\u001f\u007f-\u009f]/.test(text);
}

// The URL that starts (or shares) a board directly.
export function boardUrl(mode, preset, seed) {
  const q = new URLSearchParams({ mode, preset });
  if (seed) q.set('seed', seed);
  return `/?${q}`;
}

// The last mode and preset chosen on a form, remembered under `key` (a
// missing, unreadable or outdated entry gives Same Game, easy).
export function loadChoice(key) {
  try {
    const c = JSON.parse(localStorage.getItem(key) || 'null');
    if (c && validBoard(c.mode, c.preset)) return c;
  } catch { /* default */ }
  return { mode: 'same', preset: 'easy' };
}

export function saveChoice(key, choice) {
  try { localStorage.setItem(key, JSON.stringify(choice)); } catch { /* not remembered */ }
}
