// Replay of a finished game (/api/games/{id}).
//
// Same Game is replayed for real: its moves are sent one by one (Step or
// Autoplay) to a fresh game and the events are shown. That fresh game must
// never count as the viewer's ranked attempt, so it is always an unranked
// practice copy started from a custom `board` (rules.md: a custom board is
// practice). For a preset game the starting board is first read from a
// new_game on the same preset and seed; that game gets no move, so it never
// ends and never counts (rules.md: a game counts when it ends).
//
// Match-3 refills come from the seeded generator, which a custom-board copy
// would not reproduce, and hidden games cannot be rebuilt without the
// colours the client never sees; both are shown as their move list, with a
// Verify button that asks the server to replay them (/verify). So is a
// competition game (the daily's included): its board is dealt from a secret
// key, so a seed alone does not give it. A competition keeps its games'
// moves secret until it closes (`moves: null`), except from their own
// player: the page asks again with the player's token when the game is
// theirs.

import { h, clear, link } from '../dom.js';
import { t, onLangChange, formatDuration } from '../i18n.js';
import { GameController } from '../game.js';
import { api } from '../api.js';

function moveText(m) {
  const [kind, ...n] = m;
  if (kind === 'swap') return `swap (${n[0]},${n[1]}) ↔ (${n[2]},${n[3]})`;
  return `${kind} (${n[0]},${n[1]})`;
}

export function replayPage(root, app, params) {
  const id = String(params.game || '');
  const section = h('section', { class: 'replay', testid: 'replay-page' });
  root.append(section);
  let record = null;
  let error = null;
  let verdict = null;
  let step = 0;
  let autoplay = null;
  let ctrl = null;
  const boardWrap = h('div', { class: 'board-wrap' });
  const stepLine = h('p', { testid: 'replay-step' });
  const scoreLine = h('p', { testid: 'replay-score' });
  const msg = h('p', { class: 'message', testid: 'replay-message' });
  const moveList = h('ol', { class: 'move-list', testid: 'replay-moves' });

  const movesOf = () => record.moves || [];
  const fromCompetition = () => !!record.competition || record.moves == null;

  function renderMoves() {
    clear(moveList);
    if (record.moves == null) {
      stepLine.textContent = '';
      moveList.append(h('li', { class: 'note', testid: 'replay-moves-hidden' }, t('replay.movesHidden')));
      return;
    }
    record.moves.forEach((m, i) => {
      moveList.append(h('li', { class: i < step ? 'done' : (i === step ? 'next' : '') }, moveText(m)));
    });
    stepLine.textContent = t('replay.step', { i: step, n: record.moves.length });
    if (ctrl && ctrl.model) scoreLine.textContent = `${t('hud.score')}: ${ctrl.model.score}`;
  }

  function render() {
    clear(section);
    section.append(h('h2', {}, t('replay.title', { id })));
    if (error) { section.append(h('p', { class: 'message' }, error)); return; }
    if (!record) { section.append(h('p', {}, t('common.loading'))); return; }
    const boardName = `${t(`mode.${record.mode}`)} · ${record.preset ? t(`preset.${record.preset}`) : t('preset.custom')} · ${record.seed ?? ''}`;
    section.append(
      h('p', { testid: 'replay-info' },
        link(`/?${new URLSearchParams({ view: 'player', name: record.player })}`, record.player),
        ` · ${t('lb.score')}: ${record.score} · ${boardName}`,
        record.duration_ms != null ? ` · ${formatDuration(record.duration_ms / 1000)}` : ''));
    if (record.moves && record.moves_published_at && Date.now() < Date.parse(record.moves_published_at)) {
      section.append(h('p', { class: 'note', testid: 'replay-own-moves' }, t('replay.ownMoves')));
    }
    if (record.competition) {
      section.append(h('p', {}, link(`/?${new URLSearchParams({ view: 'competition', id: record.competition })}`,
        t('lb.competition'), { testid: 'replay-competition' })));
    }
    const verifyBtn = h('button', { type: 'button', testid: 'btn-verify', i18n: 'btn.verify' });
    verifyBtn.addEventListener('click', verify);
    const tools = [verifyBtn];
    if (record.mode === 'same' && !fromCompetition()) {
      const stepBtn = h('button', { type: 'button', testid: 'btn-step', i18n: 'btn.step' });
      const playBtn = h('button', { type: 'button', testid: 'btn-autoplay' }, autoplay ? t('btn.pause') : t('btn.play'));
      stepBtn.addEventListener('click', () => stepOnce());
      playBtn.addEventListener('click', () => { toggleAutoplay(); render(); });
      tools.unshift(stepBtn, playBtn);
      section.append(h('p', { class: 'note' }, t('replay.practiceNote')), boardWrap, scoreLine);
    } else {
      section.append(h('p', { class: 'note' }, t(fromCompetition() ? 'replay.competitionNote' : 'replay.listOnly')));
    }
    // Element.append would write a null as the text "null": only elements.
    section.append(...[h('div', { class: 'controls' }, tools), stepLine, msg,
      verdict ? h('p', { testid: 'replay-verdict', class: verdict.valid ? 'ok' : 'bad' },
        verdict.valid ? t('replay.valid', { score: verdict.score }) : t('replay.invalid', { score: verdict.score })) : null,
      h('h3', { i18n: 'replay.moves' }), moveList].filter(Boolean));
    renderMoves();
  }

  async function verify() {
    try {
      verdict = await api.verify(id);
    } catch (err) {
      msg.textContent = t('err.generic', { message: err.message });
      return;
    }
    render();
  }

  async function stepOnce() {
    if (!ctrl || !ctrl.model || step >= movesOf().length) {
      toggleAutoplay(false);
      return;
    }
    const [kind, x, y] = record.moves[step];
    step += 1;
    renderMoves();
    if (kind !== 'click') return;
    await ctrl.move('click', { x, y });
    await ctrl.idle();
    renderMoves();
  }

  function toggleAutoplay(on = !autoplay) {
    clearInterval(autoplay);
    autoplay = null;
    if (on) {
      autoplay = setInterval(() => {
        if (ctrl && ctrl.busy) return;
        stepOnce();
      }, 700);
    }
  }

  async function startCopy() {
    const ui = {
      setHud: () => renderMoves(), setMessage: (s) => { msg.textContent = s; },
      setPreview: () => {}, showOver: () => {}, setBusy: () => {},
    };
    ctrl = new GameController(app.net, ui);
    ctrl.modeFactories = { same: () => ({ buttons: [] }) };
    app.setGame(ctrl);
    boardWrap.append(ctrl.view.el);
    let board = record.board;
    if (!board && record.preset) {
      const probe = await app.net.request('new_game', { mode: record.mode, preset: record.preset, seed: record.seed });
      board = probe.game.board;
    }
    const fields = board ? { mode: 'same', board }
      : { mode: 'same', width: record.width, height: record.height, colors: record.colors, seed: record.seed };
    await ctrl.start(fields);
  }

  api.game(id).then(async (r) => {
    record = r;
    // The player's own game whose moves are not public yet: they may see them.
    // (The stored identity: the connection may not have said hello yet.)
    const mine = app.net.identity && app.net.identity.get();
    if (record.moves == null && mine && mine.name === record.player && mine.token) {
      record = await api.ownGame(id, mine.token).catch(() => record);
    }
    render();
    if (record.mode === 'same' && !fromCompetition()) {
      try {
        await startCopy();
      } catch (err) {
        msg.textContent = t('err.generic', { message: err.message || err.code });
      }
    }
  }).catch((err) => {
    error = err.status === 404 ? t('replay.notFound') : t('err.generic', { message: err.message });
    render();
  });
  render();

  const offLang = onLangChange(render);
  return () => {
    offLang();
    toggleAutoplay(false);
    if (ctrl) { ctrl.destroy(); app.setGame(null); }
  };
}
