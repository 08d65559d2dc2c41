// Leaderboards by board (mode, preset, seed) or by competition (the daily
// boards are competitions: /api/competitions/{id}/leaderboard): today's
// boards first, paging with limit/offset, the player's own row highlighted,
// and an "around me" view (/leaderboard/around).

import { h, clear, link } from '../dom.js';
import { t, onLangChange, formatGameTime, playersText } from '../i18n.js';
import { MODES, PRESETS } from '../presets.js';
import { api } from '../api.js';
import { compLeaderboardUrl, compUrl, validId } from '../competitions/logic.js';
import { compName, phoneHides } from '../competitions/views.js';
import { replayUrl } from '../replay/links.js';
import { unreachableNotice, failureText } from '../unreachable.js';

const PAGE = 20;

function lbUrl(p) {
  if (p.competition) return compLeaderboardUrl(p.competition, { offset: p.offset, around: p.around });
  const q = new URLSearchParams({ view: 'leaderboard', mode: p.mode, preset: p.preset, seed: p.seed });
  if (p.offset) q.set('offset', p.offset);
  if (p.around) q.set('around', '1');
  return `/?${q}`;
}

export function leaderboardPage(root, app, params) {
  const board = {
    mode: params.mode, preset: params.preset, seed: params.seed,
    competition: validId(params.competition) ? params.competition : null,
    offset: Math.max(0, Number(params.offset) || 0), around: params.around === '1',
  };
  const hasBoard = board.competition || (board.mode && board.preset && board.seed);
  let comp = null;
  const dailyList = h('ul', { class: 'daily-list', testid: 'lb-daily' });
  const status = h('p', { class: 'note', testid: 'lb-status' });
  const table = h('table', { class: 'lb-table', testid: 'lb-table' });
  const pager = h('div', { class: 'pager' });
  const heading = h('h2', { testid: 'lb-heading' });
  let data = null;
  let daily = null;
  let missing = false;  // no competition has board.competition

  const modeSel = h('select', { testid: 'lb-mode' });
  const presetSel = h('select', { testid: 'lb-preset' });
  const seedIn = h('input', { type: 'text', maxlength: 64, testid: 'lb-seed', value: board.seed || '' });
  function fillSelectors() {
    clear(modeSel);
    for (const m of MODES) modeSel.append(h('option', { value: m }, t(`mode.${m}`)));
    modeSel.value = PRESETS[board.mode] ? board.mode : 'same';
    clear(presetSel);
    for (const p of PRESETS[modeSel.value]) presetSel.append(h('option', { value: p }, t(`preset.${p}`)));
    if (PRESETS[modeSel.value].includes(board.preset)) presetSel.value = board.preset;
  }
  modeSel.addEventListener('change', () => {
    board.mode = modeSel.value;
    fillSelectors();
  });
  // Each label holds its control, so the two wrap onto a new line together
  // (the text in a span of its own: a language change rewrites it alone).
  const field = (key, control, cls) => h('label', { class: cls ? `lb-field ${cls}` : 'lb-field' },
    h('span', { i18n: key }), control);
  const form = h('form', { class: 'lb-form', testid: 'lb-form' },
    field('mode.label', modeSel), field('preset.label', presetSel), field('home.seed', seedIn, 'lb-seed-field'),
    h('button', { type: 'submit', testid: 'lb-show', i18n: 'btn.show' }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!seedIn.value.trim()) { seedIn.focus(); return; }
    app.navigate(lbUrl({ mode: modeSel.value, preset: presetSel.value, seed: seedIn.value.trim() }));
  });

  function renderDaily() {
    clear(dailyList);
    if (!daily) return;
    for (const b of daily.boards) {
      const current = hasBoard && (b.competition ? b.competition === board.competition
        : !board.competition && b.mode === board.mode && b.preset === board.preset && b.seed === board.seed);
      const target = b.competition ? { competition: b.competition } : b;
      dailyList.append(h('li', { class: current ? 'current' : '' },
        link(lbUrl(target), `${t(`mode.${b.mode}`)} · ${t(`preset.${b.preset}`)}`, { testid: 'lb-daily-link' })));
    }
  }

  function renderTable() {
    clear(table);
    clear(pager);
    if (!hasBoard) {
      heading.textContent = t('lb.choose');
      return;
    }
    if (missing) {
      // As the competition page says it: why, and the way on.
      heading.textContent = t('comp.missing.title');
      pager.append(link('/?view=competitions', t('comp.missing.all'), { class: 'button', testid: 'lb-competitions' }));
      return;
    }
    if (board.competition) {
      const src = comp || data;
      clear(heading);
      // A daily's name already says its mode and board; an organiser's
      // competition is followed by them.
      const modeText = src && src.mode ? `${t(`mode.${src.mode}`)} · ${t(`preset.${src.preset}`)}` : board.competition;
      heading.append(`${t('lb.title')}: `, comp && comp.daily ? compName(comp)
        : `${comp ? `${compName(comp)} · ` : ''}${modeText}`);
      pager.append(link(compUrl(board.competition), t('lb.competition'), { class: 'button', testid: 'lb-competition' }));
    } else {
      heading.textContent = `${t('lb.title')}: ${t(`mode.${board.mode}`)} · ${t(`preset.${board.preset}`)} · ${board.seed}`;
    }
    if (!data) return;
    const me = app.net.player && app.net.player.name;
    // A competition game's moves are a solution of its board: until the
    // competition has closed only the player's own row links to its replay
    // (casual boards keep their links). A hidden or match-3 casual board's
    // key is never published: only the own row, always. The replay page
    // sends the player's token, which the server asks for then.
    const never = !board.competition && board.mode !== 'same';
    const ownOnly = never || (board.competition && !(comp && comp.state === 'closed'));
    // Before the close the others' rows say when their replays come.
    const later = ownOnly && !never;
    const replays = never ? data.entries.some((e) => me && e.player === me) : true;
    // An empty board says so in the status line: no headings over nothing.
    // The attempts, and of moves and time the one that breaks no tie, are
    // left out on a phone (style.css, .opt), and a long name wraps (.who),
    // so that rank, name, score and the tie-break always fit its width.
    const opt = (k) => (phoneHides(board.mode).includes(k) ? 'opt' : null);
    if (data.entries.length) table.append(h('thead', {}, h('tr', {},
      ['lb.rank', 'lb.player', 'lb.score', 'lb.moves', 'lb.time', 'lb.attempts', replays ? 'lb.replay' : null]
        .filter(Boolean).map((k) => h('th', { i18n: k, class: opt(k) })))));
    const body = h('tbody');
    for (const e of data.entries) {
      const mine = me && e.player === me;
      body.append(h('tr', { class: mine ? 'me' : '', testid: 'lb-row', dataset: { player: e.player, rank: String(e.rank) } },
        h('td', {}, String(e.rank)),
        h('td', { class: 'who' }, link(`/?${new URLSearchParams({ view: 'player', name: e.player })}`, e.player)),
        h('td', { testid: 'lb-score' }, String(e.score)),
        h('td', { class: opt('lb.moves') }, String(e.move_count)),
        h('td', { class: opt('lb.time') }, e.duration_ms == null ? ''
          : formatGameTime(e.duration_ms, { tenths: board.mode === 'hidden' })),
        h('td', { class: opt('lb.attempts') }, String(e.attempts)),
        replays ? h('td', {}, !e.game_id ? ''
          : !ownOnly || mine ? link(replayUrl(e.game_id), t('btn.replay'))
            : later ? h('span', { class: 'note', testid: 'lb-replay-later' }, t('lb.replayAtClose')) : '') : null));
    }
    table.append(body);
    // A count or an empty board is news, not an error (seasons.js the same).
    status.className = 'note';
    if (data.total === 0) status.textContent = t('lb.empty');
    else status.textContent = playersText(data.total);
    if (board.around) {
      pager.append(link(lbUrl({ ...board, around: false, offset: 0 }), t('btn.top'), { class: 'button', testid: 'lb-top' }));
      return;
    }
    if (board.offset > 0) {
      pager.append(link(lbUrl({ ...board, offset: Math.max(0, board.offset - PAGE) }), t('btn.prev'), { class: 'button', testid: 'lb-prev' }));
    }
    if (board.offset + PAGE < data.total) {
      pager.append(link(lbUrl({ ...board, offset: board.offset + PAGE }), t('btn.next'), { class: 'button', testid: 'lb-next' }));
    }
    if (me) pager.append(link(lbUrl({ ...board, around: true, offset: 0 }), t('btn.around'), { class: 'button', testid: 'lb-around' }));
  }

  // The server down: the page says so and fills in once it answers.
  const notice = unreachableNotice(() => load());
  async function load() {
    try {
      daily = await api.daily();
      renderDaily();
      notice.hide();
    } catch (err) {
      // Anything else: the form still works.
      if (notice.show(err)) {
        status.textContent = '';
        return;
      }
    }
    if (!hasBoard) { renderTable(); return; }
    status.className = 'note';
    status.textContent = t('common.loading');
    try {
      if (board.competition) {
        comp = await api.competition(board.competition).catch(() => null);
        // The filter shows the board on screen.
        if (comp && PRESETS[comp.mode]) {
          board.mode = comp.mode;
          board.preset = comp.preset;
          fillSelectors();
        }
        if (board.around) {
          const player = (await app.net.ready()).name;
          data = await api.compAround(board.competition, { player, radius: 5 });
        } else {
          data = await api.compLeaderboard(board.competition, { limit: PAGE, offset: board.offset });
        }
      } else if (board.around) {
        const player = (await app.net.ready()).name;
        data = await api.around({ ...board, player, radius: 5 });
      } else {
        data = await api.leaderboard({ ...board, limit: PAGE, offset: board.offset });
      }
      renderTable();
      notice.hide();
    } catch (err) {
      data = null;
      missing = !!board.competition && !comp && err.status === 404;
      renderTable();
      status.className = 'message';
      if (notice.show(err)) status.textContent = '';
      else {
        status.textContent = missing ? t('comp.missing.note')
          : err.status === 404 && board.around ? t('lb.notOn') : failureText(err);
      }
    }
  }

  fillSelectors();
  renderTable();
  root.append(h('section', { class: 'leaderboard', testid: 'leaderboard-page' }, notice.el,
    h('div', { class: 'card' }, h('h2', { i18n: 'lb.dailyBoards' }), dailyList, form),
    h('div', { class: 'card' }, heading, status, h('div', { class: 'table-wrap' }, table), pager)));
  load();
  const offLang = onLangChange(() => {
    fillSelectors();
    renderDaily();
    renderTable();
  });
  // The player's own row (highlighted, and on a hidden or match-3 casual
  // board the only one with a replay link) is known once hello is answered,
  // which may come after the leaderboard's data: draw the table again then.
  const onReady = () => renderTable();
  app.net.addEventListener('ready', onReady);
  return () => {
    offLang();
    notice.stop();
    app.net.removeEventListener('ready', onReady);
  };
}

// A visitor reads a board's rows without choosing a name; "around me" needs one.
leaderboardPage.forVisitors = (p) => p.around !== '1';
