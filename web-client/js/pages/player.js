// A player's page (/api/players/{name}): games played and the best score per
// mode and preset, with links to the board's leaderboard and the replay;
// then their history and calendar (history/): all their finished games on
// their own page, their closed boards' games on anyone else's.

import { h, clear, link } from '../dom.js';
import { t, tn, onLangChange, formatDay } from '../i18n.js';
import { MODES, PRESETS } from '../presets.js';
import { api } from '../api.js';
import { streakList } from '../standing/streaks.js';
import { historyList, pageSize } from '../history/history_list.js';
import { playCalendar } from '../history/calendar.js';
import { replayUrl } from '../replay/links.js';
import { unreachableNotice, failureText } from '../unreachable.js';

const lower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

export function playerPage(root, app, params) {
  // This browser's own name before its first welcome (a name chosen, no
  // token yet): whether the page is the player's own, and for a new name
  // whether the player exists at all, is known only once hello is answered.
  // "My games" clicked in that moment waits for it rather than showing a
  // stranger's view (or "unknown player") of the player's own page.
  const mine = app.net.identity && app.net.identity.get();
  const helloPending = mine && !mine.token && !app.net.player && app.net.status !== 'idle';
  if (!helloPending || lower(mine.name) !== lower(String(params.name || ''))) {
    return showPlayer(root, app, params);
  }
  let gone = false;
  let inner = null;
  const wait = h('p', { class: 'player card' }, t('common.loading'));
  root.append(wait);
  app.net.ready().then(() => {
    if (gone) return;
    wait.remove();
    inner = showPlayer(root, app, params);
  });
  return () => { gone = true; if (inner) inner(); };
}

function showPlayer(root, app, params) {
  const name = String(params.name || '');
  const section = h('section', { class: 'player card', testid: 'player-page' });
  // The server down: the page says so and fills in once it answers.
  const notice = unreachableNotice(() => fetchPlayer());
  root.append(notice.el, section);
  let data = null;
  let error = null;

  function order(b) {
    const m = MODES.indexOf(b.mode);
    const p = PRESETS[b.mode] ? PRESETS[b.mode].indexOf(b.preset) : 0;
    return m * 100 + p;
  }

  function render() {
    clear(section);
    section.append(h('h2', { testid: 'player-name' }, t('player.title', { name })));
    if (error) { section.append(h('p', { class: 'message' }, error)); return; }
    if (!data) { if (!notice.shown) section.append(h('p', {}, t('common.loading'))); return; }
    const since = data.created_at ? formatDay(data.created_at) : '';
    section.append(...[
      since ? h('p', {}, t('player.since', { date: since })) : null,
      h('p', { testid: 'player-games' }, tn('player.games', data.games_played, { n: data.games_played })),
      data.streaks && data.streaks.length ? h('h3', { i18n: 'streak.title' }) : null,
      streakList(data.streaks, 'player-streaks'),
      h('h3', { i18n: 'player.bests' })].filter(Boolean));
    if (data.bests.length === 0) {
      section.append(h('p', { class: 'note', testid: 'player-no-bests', i18n: 'player.noBests' }));
      return;
    }
    const body = h('tbody');
    for (const b of [...data.bests].sort((a, c) => order(a) - order(c))) {
      // A best made in a competition (the daily's included) is on that
      // competition's leaderboard, not on the seed's. One made in an
      // unlisted competition comes without its seed and its game: the
      // competition's id stays behind its link.
      const lb = b.competition ? new URLSearchParams({ view: 'leaderboard', competition: b.competition })
        : new URLSearchParams({ view: 'leaderboard', mode: b.mode, preset: b.preset, seed: b.seed });
      // A competition game's moves are a solution of its board: no replay
      // before the close (moves_published_at), but for its own player, whom
      // the server gives them with their token (protocol.md, "The player's
      // own moves"), as "My games" below links them.
      const secret = !own && b.moves_published_at && Date.now() < Date.parse(b.moves_published_at);
      // A hidden or match-3 game on a casual board: its key is never
      // published, so only its own player may replay it.
      const never = !b.competition && b.mode !== 'same' && !own;
      let replay = '';
      if (b.game_id && never) replay = h('span', { class: 'note', testid: 'player-replay-never' }, t('lb.replayNever'));
      else if (b.game_id && !secret) replay = link(replayUrl(b.game_id), t('btn.replay'));
      else if (b.game_id) replay = h('span', { class: 'note', testid: 'player-replay-later' }, t('lb.replayAtClose'));
      body.append(h('tr', { testid: 'player-best', dataset: { mode: b.mode, preset: b.preset } },
        h('td', {}, t(`mode.${b.mode}`)),
        h('td', { class: 'keep' }, t(`preset.${b.preset}`)),
        // A short seed (a daily's date) stays whole; a long custom one breaks.
        h('td', { class: b.seed != null && b.seed.length <= 12 ? 'keep' : null }, b.seed == null ? h('span', { class: 'note', testid: 'player-unlisted' }, t('player.unlistedBest')) : link(`/?${lb}`, b.seed)),
        h('td', {}, String(b.score)),
        h('td', {}, replay)));
    }
    section.append(h('div', { class: 'table-wrap' }, h('table', { class: 'lb-table' },
      h('thead', {}, h('tr', {}, ['mode.label', 'preset.label', 'home.seed', 'lb.score', 'lb.replay']
        .map((k) => h('th', { i18n: k })))), body)));
  }

  // History: the player's own page sends their token (the stored identity:
  // the connection may not have said hello yet). Names match ignoring ASCII case.
  const mine = app.net.identity && app.net.identity.get();
  const own = Boolean(mine && mine.token && lower(mine.name) === lower(name));
  // The games and the calendar are asked for once the player is known to
  // exist: of a name nobody has, the page asks nothing more.
  let history = null;
  let calendar = null;
  let gone = false;
  const showHistory = () => {
    history = historyList(name, own, own ? mine.token : null, pageSize(params.limit));
    calendar = playCalendar(name, own, own ? mine.token : null, data && data.created_at);
    root.append(history.el, calendar.el);
  };

  const fetchPlayer = () => api.player(name).then((d) => {
    if (gone) return;
    data = d;
    error = null;
    notice.hide();
    render();
    showHistory();
    // "My games": once the profile above has its height (the router has
    // scrolled to the top by then).
    if (params.section === 'history') history.el.scrollIntoView();
  }).catch((err) => {
    if (gone) return;
    if (notice.show(err)) error = null;
    else {
      error = err.status === 404 ? t('player.unknown') : failureText(err);
      if (err.status !== 404) showHistory();
    }
    render();
  });
  fetchPlayer();
  render();
  const off = onLangChange(() => { render(); if (history) { history.render(); calendar.render(); } });
  return () => { gone = true; off(); notice.stop(); if (history) { history.stop(); calendar.stop(); } };
}

// A player's page is public: a visitor reads it without choosing a name.
playerPage.forVisitors = () => true;
