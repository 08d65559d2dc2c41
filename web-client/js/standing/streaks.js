// Daily streaks (rules.md, "Streaks"), as GET /api/players/{name} gives
// them: one line per mode with a counted day, in mode order.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { MODES } from '../presets.js';

// The text of one mode's streak: "Hidden colours: 🔥 3 days (best 9)".
export function streakText(s) {
  const current = s.current > 0 ? t('streak.current', { n: s.current }) : t('streak.none');
  return `${t(`mode.${s.mode}`)}: ${current} · ${t('streak.best', { n: s.best })}`;
}

// A list of the streaks, or null when there is none.
export function streakList(streaks, testid = 'streaks') {
  if (!Array.isArray(streaks) || streaks.length === 0) return null;
  const sorted = [...streaks].sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode));
  return h('ul', { class: 'streaks', testid },
    sorted.map((s) => h('li', { class: s.current > 0 ? 'streak on' : 'streak', testid: 'streak',
      dataset: { mode: s.mode, current: String(s.current), best: String(s.best) } }, streakText(s))));
}
