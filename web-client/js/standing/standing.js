// The game-over panel's "where you stand": the player's place and field on
// the board (their entry: the best of their ranked games there), their
// best on the board and over the mode and preset, for a daily the change
// since yesterday's daily and the time to the next one, and a share text
// that gives nothing of the board away (share.js).
//
// Everything comes from the public HTTP API, read after the game's
// game_over: the server puts a finished game in its place before it
// answers the move (protocol.md, "Leaderboards and games").

import { h, clear } from '../dom.js';
import { t, formatDuration } from '../i18n.js';
import { api } from '../api.js';
import { copyOrSelect } from '../clipboard.js';
import { compUrl } from '../competitions/logic.js';
import { boardUrl } from '../presets.js';
import { streakText } from './streaks.js';
import { placesOn, dayStart } from './own_entries.js';
import {
  changeSince, dailyId, parseDailyId, secondsToNextDaily, shareText, shiftDate, signed,
} from './share.js';

// A 404 (not on the board, no such daily) is an answer, not a failure.
async function orNull(promise) {
  try {
    return await promise;
  } catch (err) {
    if (err && err.status === 404) return null;
    throw err;
  }
}

function entryOf(page) {
  return page && Array.isArray(page.entries) && page.entries.length ? { ...page.entries[0], total: page.total } : null;
}

// The player's place on yesterday's daily of the same board (own_entries.js).
async function yesterdayEntry(player, daily, token) {
  const date = shiftDate(daily.date, -1);
  const id = dailyId(date, daily.mode, daily.preset);
  return (await placesOn(player, [id], dayStart(date), token)).get(id);
}

// Reads what the panel shows. `gv`: the finished GameView; `player`: the
// signed-in name; `token`: their own token, or null. Resolves to {entry,
// bestOverall, yesterday, daily, streak}.
export async function loadStanding(gv, player, token = null) {
  const daily = parseDailyId(gv.competition);
  const entryPage = !gv.ranked ? null
    : gv.competition ? orNull(api.compAround(gv.competition, { player, radius: 0 }))
      : orNull(api.around({ mode: gv.mode, preset: gv.preset, seed: gv.seed, player, radius: 0 }));
  const yesterdayPage = daily ? yesterdayEntry(player, daily, token) : null;
  // An organiser's competition is shared by its own name.
  const compPage = gv.competition && !daily ? orNull(api.competition(gv.competition)) : null;
  const [entry, me, yesterday, comp] = await Promise.all([
    entryPage, gv.preset ? orNull(api.player(player)) : null, yesterdayPage, compPage]);
  const best = me && Array.isArray(me.bests)
    ? me.bests.find((b) => b.mode === gv.mode && b.preset === gv.preset) : null;
  const streak = me && Array.isArray(me.streaks) ? me.streaks.find((s) => s.mode === gv.mode) : null;
  return {
    entry: entryOf(entry), bestOverall: best ? best.score : null, yesterday, daily,
    streak: streak || null, compName: comp && comp.name ? comp.name : null,
  };
}

// The section itself. `info`: {finalScore, reason}; `run`: {trail: the
// score after each move seen on this page (null when the game was resumed
// midway), peeks: the hidden game's accepted peeks (or null)}.
// Returns {el, dispose}: dispose stops the countdown.
export function standingSection(gv, info, run, player, token = null) {
  // Announced once it is read (role status); the countdown below it is not a
  // live region, or a screen reader would read it every second.
  const el = h('div', { class: 'standing', testid: 'gameover-standing' },
    h('p', { class: 'muted' }, t('standing.loading')));
  let timer = null;
  let gone = false;
  const finalScore = info && info.finalScore != null ? info.finalScore : gv.score;

  const place = (e) => t('standing.rankOf', { rank: e.rank, total: e.total });

  function render(s) {
    clear(el);
    const rows = [];
    const mine = s.entry && s.entry.game_id === gv.game_id;
    if (!gv.ranked) rows.push(h('p', { testid: 'standing-unranked' }, t('standing.unranked')));
    else if (s.entry) {
      rows.push(h('p', { class: 'standing-place', testid: 'standing-rank', role: 'status' },
        t('standing.place', { place: place(s.entry) })));
      if (!mine) rows.push(h('p', { testid: 'standing-best-here' }, t('standing.bestHere', { score: s.entry.score })));
    }
    if (s.bestOverall != null) {
      rows.push(h('p', { testid: 'standing-best-overall' }, t('standing.bestOverall', {
        mode: t(`mode.${gv.mode}`), preset: t(`preset.${gv.preset}`), score: s.bestOverall,
      })));
    }
    if (s.daily && s.streak) rows.push(h('p', { class: 'standing-streak', testid: 'standing-streak' }, streakText(s.streak)));
    if (s.daily) {
      if (s.yesterday) {
        const d = changeSince(s.entry, s.yesterday);
        rows.push(h('p', { testid: 'standing-yesterday' },
          t('standing.yesterday', { place: place(s.yesterday), score: s.yesterday.score }),
          d ? ` ${t('standing.change', { score: signed(d.score) })}` : ''));
      } else rows.push(h('p', { testid: 'standing-yesterday' }, t('standing.noYesterday')));
      const next = h('p', { class: 'standing-next', testid: 'standing-next' });
      const tick = () => {
        // The browser's clock: after midnight it counts to the following day.
        next.textContent = t('standing.next', { time: formatDuration(secondsToNextDaily(Date.now())) });
      };
      tick();
      clearInterval(timer);
      timer = setInterval(tick, 1000);
      rows.push(next);
      // A streak that counts today goes on with tomorrow's daily: said
      // here, where the player is, beside the time it opens.
      const today = new Date().toISOString().slice(0, 10);
      if (s.streak && s.streak.current > 0 && s.streak.last_day === today) {
        rows.push(h('p', { class: 'standing-keep', testid: 'standing-keep' },
          t('standing.keepStreak', { n: s.streak.current + 1 })));
      }
    }
    // A game given up before its first move has nothing to share.
    if (gv.competition && gv.ranked && gv.move_count > 0) rows.push(shareBlock(s, mine));
    el.append(...rows);
  }

  function shareBlock(s, mine) {
    const daily = s.daily;
    const title = daily
      ? t('share.daily', { mode: t(`mode.${daily.mode}`), preset: t(`preset.${daily.preset}`), date: daily.date })
      : s.compName ? `${s.compName} · ${t(`mode.${gv.mode}`)} · ${t(`preset.${gv.preset}`)}`
        : t('share.competition', { mode: t(`mode.${gv.mode}`), preset: t(`preset.${gv.preset}`) });
    const url = new URL(gv.competition ? compUrl(gv.competition) : boardUrl(gv.mode, gv.preset, gv.seed),
      location.origin).href;
    const text = shareText({
      title,
      score: finalScore,
      moveCount: gv.move_count,
      peeks: gv.mode === 'hidden' && run.peeks != null ? run.peeks : null,
      elapsedMs: null,
      streak: s.daily && s.streak && s.streak.current > 0 ? s.streak.current : null,
      rank: mine ? s.entry.rank : null,
      total: mine ? s.entry.total : null,
      trail: run.trail,
      cleared: !!(info && info.reason === 'cleared'),
      url,
    }, t);
    const preview = h('pre', { class: 'share-text', testid: 'share-text' }, text);
    const button = h('button', { type: 'button', class: 'primary', testid: 'btn-share-result' }, t('share.button'));
    const status = h('span', { class: 'muted', testid: 'share-status', role: 'status' });
    button.addEventListener('click', async () => {
      // The Web Share API where the browser has it, the clipboard otherwise.
      if (navigator.share) {
        try {
          await navigator.share({ text });
          return;
        } catch (err) {
          if (err && err.name === 'AbortError') return;
        }
      }
      status.textContent = t(await copyOrSelect(text, preview) ? 'share.copied' : 'share.select');
    });
    return h('div', { class: 'share-result' }, h('h3', {}, t('share.title')), preview,
      h('div', { class: 'share-actions' }, button, status));
  }

  loadStanding(gv, player, token).then((s) => { if (!gone) render(s); }, () => {
    if (gone) return;
    clear(el);
    el.append(h('p', { class: 'muted', testid: 'standing-error' }, t('standing.unavailable')));
  });

  return {
    el,
    dispose() {
      gone = true;
      clearInterval(timer);
    },
  };
}
