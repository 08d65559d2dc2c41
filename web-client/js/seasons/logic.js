// Seasons (rules.md, "Seasons"), the pure part: the page's address, a
// period's label, the time left in a period.

export const SEASON_MODES = ['same', 'match3', 'hidden'];
const PERIOD = /^[0-9]{4}-(W[0-9]{2}|[0-9]{2})$/;

export function validPeriod(p) {
  return typeof p === 'string' && PERIOD.test(p);
}

// ISO years with a week 53: those starting on a Thursday, and leap years
// starting on a Wednesday (the day of the week of 31 December: 4, or 3 the
// year before).
function weeksIn(year) {
  const dec31 = (y) => (y + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400)) % 7;
  return dec31(year) === 4 || dec31(year - 1) === 3 ? 53 : 52;
}

// A period the server has (protocol.md, "Seasons"): an ISO week that
// exists or a month, years 2000 to 9999. `2026-W99` has the form, not a week.
export function realPeriod(p) {
  if (!validPeriod(p)) return false;
  const year = Number(p.slice(0, 4));
  if (year < 2000) return false;
  const n = Number(p.slice(p[5] === 'W' ? 6 : 5));
  return n >= 1 && n <= (p[5] === 'W' ? weeksIn(year) : 12);
}

// /?view=seasons&mode=&period=[&offset=][&around=1]
export function seasonsUrl({ mode, period, offset, around } = {}) {
  const q = new URLSearchParams({ view: 'seasons' });
  if (mode) q.set('mode', mode);
  if (period) q.set('period', period);
  if (offset) q.set('offset', String(offset));
  if (around) q.set('around', '1');
  return `/?${q}`;
}

// "2026-W48" -> {kind: 'week', year: 2026, number: 48}; "2026-11" -> month.
export function parsePeriod(p) {
  if (!validPeriod(p)) return null;
  const year = Number(p.slice(0, 4));
  if (p[5] === 'W') return { kind: 'week', year, number: Number(p.slice(6)) };
  return { kind: 'month', year, number: Number(p.slice(5)) };
}

// The label of a period in the dictionary `t`: "Week 48, 2026", "November 2026".
export function periodLabel(p, t) {
  const parsed = parsePeriod(p);
  if (!parsed) return p;
  if (parsed.kind === 'week') return t('season.weekOf', { week: parsed.number, year: parsed.year });
  return t('season.monthOf', { month: t(`season.month.${parsed.number}`), year: parsed.year });
}

// Seconds -> {days, hours, minutes} left (never negative).
export function timeLeft(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600), minutes: Math.floor((s % 3600) / 60) };
}

export function timeLeftText(seconds, t) {
  const { days, hours, minutes } = timeLeft(seconds);
  if (days > 0) return t('season.leftDays', { days, hours });
  return t('season.leftHours', { hours, minutes });
}
