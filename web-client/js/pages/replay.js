// Replay of a finished game: GET /api/games/{id} for who played what, and
// GET /api/games/{id}/replay for its start (a GameView, as its player first
// saw it) and every step's events, which this page plays on a board with
// the animations of live play (animate.js): play and pause, a step back
// and forward, speed, a scrubber, the list of moves (each a link), and an
// address for every move (?view=replay&game=ID&move=N).
//
// A step back or a jump rebuilds the board from the start without
// animation; after every step the client's own state_hash must equal the
// step's, as in live play (a mismatch is shown, never hidden).
// The board and its steps are replay/stepper.js's (shared with the ghost of
// a race); an entry on a closed competition board links to its race.
//
// The replay exists once the game's moves are public (rules.md, "When
// commitments and keys are published"): a competition game after the
// close; before it the page says when, except to the game's own player,
// for whom it asks again with the player's token.

import { h, clear, link, sleep } from '../dom.js';
import { t, formatDuration, formatWhen } from '../i18n.js';
import { loadingPage } from '../page_life.js';
import { BoardView } from '../board.js';
import { getSpeed, setSpeed } from '../animate.js';
import { api } from '../api.js';
import { ReplayStepper, movesAt } from '../replay/stepper.js';
import { raceUrl, raceable } from '../race/links.js';
import { replayUrl } from '../replay/links.js';
import { boardName } from '../competitions/views.js';
import { copyOrSelect, SELECTED_KEY } from '../clipboard.js';

const SPEEDS = [0.5, 1, 2, 4];
const PAUSE_MS = 450;  // between two moves at 1x, after their animation

let debug = null;
// Test hook (window.__tilecrush.replay): the step on screen and its checks.
export function replayDebug() {
  return debug ? debug() : null;
}

function moveText(m) {
  if (!m) return '';
  const [kind, ...n] = m;
  if (kind === 'swap') return `${t('replay.kind.swap')} (${n[0]},${n[1]}) ↔ (${n[2]},${n[3]})`;
  return `${t(`replay.kind.${kind}`)} (${n[0]},${n[1]})`;
}

export function replayPage(root, app, params) {
  const id = String(params.game || '');
  const section = h('section', { class: 'replay', testid: 'replay-page' });
  root.append(section);
  let record = null;
  let replay = null;      // the /replay answer
  let unpublished = false; // the moves are secret to this reader: no replay
  let error = null;
  let verdict = null;
  let stepper = null;     // the replay on the board (replay/stepper.js)
  let playing = false;
  let gone = false;
  let speedIndex = 1;
  const animBase = getSpeed();
  const view = new BoardView({});
  view.el.tabIndex = 0;
  view.el.setAttribute('aria-label', t('replay.boardLabel'));

  const stepLine = h('p', { class: 'replay-step', testid: 'replay-step', 'aria-live': 'polite' });
  const scoreLine = h('p', { testid: 'replay-score' });
  const hashLine = h('p', { class: 'replay-hash', testid: 'replay-hash' });
  const msg = h('p', { class: 'message', testid: 'replay-message' });
  const moveList = h('ol', { class: 'move-list', testid: 'replay-moves' });
  const scrubber = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, testid: 'replay-scrubber',
    'aria-label': t('replay.scrubber') });
  const buttons = {
    first: h('button', { type: 'button', testid: 'btn-first', title: t('replay.first'), 'aria-label': t('replay.first') }, '|◀'),
    back: h('button', { type: 'button', testid: 'btn-back', title: t('replay.back'), 'aria-label': t('replay.back') }, '◀'),
    play: h('button', { type: 'button', class: 'primary', testid: 'btn-autoplay' }),
    step: h('button', { type: 'button', testid: 'btn-step', title: t('replay.forward'), 'aria-label': t('replay.forward') }, '▶'),
    last: h('button', { type: 'button', testid: 'btn-last', title: t('replay.last'), 'aria-label': t('replay.last') }, '▶|'),
  };
  const speedSelect = h('select', { testid: 'replay-speed', 'aria-label': t('replay.speed') },
    SPEEDS.map((s, i) => h('option', { value: String(i) }, `${s}×`)));
  speedSelect.value = String(speedIndex);
  const copyLink = h('button', { type: 'button', testid: 'btn-move-link' });

  const steps = () => (replay ? replay.steps : []);
  const stepAt = (n) => (n === 0 ? replay.start : steps()[n - 1]);
  const current = () => (stepper ? stepper.step : 0);
  const busy = () => !!(stepper && stepper.busy);

  debug = () => ({
    step: current(), steps: steps().length, playing, busy: busy(), hashOk: stepper ? stepper.hashOk : true,
    score: stepper ? stepper.score : null,
    stateHash: replay ? stepAt(current()).state_hash : null,
    published: !!replay, valid: replay ? replay.valid : null,
  });

  function applySpeed() {
    setSpeed(animBase / SPEEDS[speedIndex]);
  }

  const addressOf = (n) => replayUrl(id, n);

  function showStep() {
    if (!replay || !stepper) return;
    const n = steps().length;
    const step = stepper.step;
    const hashOk = stepper.hashOk;
    const s = stepAt(step);
    // Moves are counted; the end of a given-up game is no move of its own.
    const at = movesAt(steps(), step);
    stepLine.textContent = at.end ? t('replay.atEnd') : t('replay.step', { i: at.made, n: at.total });
    scoreLine.textContent = `${t('hud.score')}: ${s.score}`;
    hashLine.textContent = hashOk ? t('replay.hashOk') : t('replay.hashBad');
    hashLine.className = hashOk ? 'replay-hash ok' : 'replay-hash bad';
    scrubber.max = String(n);
    scrubber.value = String(step);
    buttons.first.disabled = step === 0;
    buttons.back.disabled = step === 0;
    buttons.step.disabled = step >= n;
    buttons.last.disabled = step >= n;
    buttons.play.textContent = playing ? `❚❚ ${t('btn.pause')}` : `▶ ${t('btn.play')}`;
    copyLink.textContent = at.end ? t('replay.copyEnd') : t('replay.copyLink', { i: at.made });
    for (const li of moveList.children) {
      const i = Number(li.dataset.step);
      li.className = i <= step ? 'done' : '';
      if (i === step) li.classList.add('current');
    }
    history.replaceState(null, '', addressOf(step));
  }

  const jump = (n) => stepper && stepper.jump(n);
  const forward = () => (stepper ? stepper.forward() : Promise.resolve());

  // Each play gets a number: a loop still waiting on a step when the player
  // pauses and plays again ends there, so that one loop runs at a time.
  let loops = 0;
  async function playLoop(loop) {
    while (playing && loop === loops && !gone && !stepper.done) {
      await forward();
      if (gone || loop !== loops) return;
      if (stepper.done) break;
      await sleep(PAUSE_MS / SPEEDS[speedIndex]);
    }
    if (loop !== loops) return;
    playing = false;
    if (!gone) showStep();
  }

  function setPlaying(on) {
    if (!replay || !stepper) return;
    if (on && stepper.done) jump(0);
    playing = on;
    loops += 1;
    showStep();
    if (on) playLoop(loops);
  }

  buttons.play.addEventListener('click', () => setPlaying(!playing));
  buttons.step.addEventListener('click', () => { setPlaying(false); forward(); });
  buttons.back.addEventListener('click', () => { if (busy()) return; setPlaying(false); jump(current() - 1); });
  buttons.first.addEventListener('click', () => { if (busy()) return; setPlaying(false); jump(0); });
  buttons.last.addEventListener('click', () => { if (busy()) return; setPlaying(false); jump(steps().length); });
  scrubber.addEventListener('input', () => {
    const wanted = Number(scrubber.value);  // read before showStep() sets it back
    if (busy()) return;
    setPlaying(false);
    jump(wanted);
  });
  speedSelect.addEventListener('change', () => {
    speedIndex = Number(speedSelect.value);
    applySpeed();
  });
  copyLink.addEventListener('click', async () => {
    const url = new URL(addressOf(current()), location.origin).href;
    // "Link copied" only when it was; else the link, shown and selected.
    const shown = () => {
      const text = h('span', { class: 'copy-text', testid: 'replay-link-text' }, url);
      msg.replaceChildren(`${t(SELECTED_KEY)} `, text);
      return text;
    };
    if (await copyOrSelect(url, shown)) msg.textContent = t('replay.linkCopied');
  });
  // Keys on the board: left and right step, space plays or pauses.
  view.el.addEventListener('keydown', (e) => {
    if (!replay) return;
    if (e.key === 'ArrowRight') { e.preventDefault(); setPlaying(false); forward(); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); if (!busy()) { setPlaying(false); jump(current() - 1); } }
    else if (e.key === ' ') { e.preventDefault(); setPlaying(!playing); }
  });

  function renderMoves() {
    clear(moveList);
    if (!replay) {
      if (record && record.moves) {
        record.moves.forEach((m) => moveList.append(h('li', {}, moveText(m))));
      }
      return;
    }
    steps().forEach((s, i) => {
      const a = link(addressOf(i + 1), s.move ? moveText(s.move) : t('replay.end'), { testid: 'replay-move' });
      a.addEventListener('click', (e) => {
        e.preventDefault();
        e.stopPropagation();
        if (busy()) return;
        setPlaying(false);
        jump(i + 1);
      });
      // The end of a given-up game is no move: it goes unnumbered.
      moveList.append(h('li', { dataset: s.move ? { step: String(i + 1) } : { step: String(i + 1), end: '' } }, a));
    });
  }

  function render() {
    clear(section);
    section.append(h('h2', {}, t('replay.title', { id })));
    if (error) { section.append(h('p', { class: 'message' }, error)); return; }
    if (!record) { section.append(h('p', {}, t('common.loading'))); return; }
    const board = `${boardName(record)} · ${record.seed ?? ''}`;
    section.append(
      h('p', { testid: 'replay-info' },
        link(`/?${new URLSearchParams({ view: 'player', name: record.player })}`, record.player),
        ` · ${t('lb.score')}: ${record.score} · ${board}`,
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
    if (replay) {
      section.append(
        h('div', { class: 'replay-stage' }, h('div', { class: 'board-wrap' }, view.el),
          h('div', { class: 'replay-side' }, stepLine, scoreLine, hashLine)),
        h('div', { class: 'controls replay-controls' }, buttons.first, buttons.back, buttons.play, buttons.step,
          buttons.last, h('label', { class: 'replay-speed' }, `${t('replay.speed')} `, speedSelect)),
        scrubber,
        h('div', { class: 'controls' }, copyLink, verifyBtn,
          raceable(record) ? link(raceUrl(id), t('race.action'), { class: 'button', testid: 'race-entry' }) : null));
    } else {
      // Secret moves: one sentence says when they are published (or that
      // they never are); Verify still works, the server answering only
      // whether the stored moves give the score (protocol.md, /verify).
      const when = record.moves_published_at ? formatWhen(record.moves_published_at) : null;
      if (unpublished) {
        section.append(h('p', { class: 'note', testid: 'replay-unpublished' },
          when ? t('replay.publishedAt', { time: when }) : t('replay.neverPublished')));
      }
      section.append(h('div', { class: 'controls' }, verifyBtn));
    }
    section.append(...[msg,
      verdict ? h('p', { testid: 'replay-verdict', class: verdict.valid ? 'ok' : 'bad' },
        verdict.valid ? t('replay.valid', { score: verdict.score }) : t('replay.invalid', { score: verdict.score })) : null,
      ...(replay || record.moves ? [h('h3', { i18n: 'replay.moves' }), moveList] : [])].filter(Boolean));
    renderMoves();
    if (replay) showStep();
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

  async function load() {
    try {
      record = await api.game(id);
    } catch (err) {
      error = err.status === 404 ? t('replay.notFound') : t('err.generic', { message: err.message });
      render();
      return;
    }
    // The player's own game whose moves are not public yet: they may see them.
    // (The stored identity: the connection may not have said hello yet.)
    const mine = app.net.identity && app.net.identity.get();
    const own = record.moves == null && mine && mine.name === record.player && mine.token ? mine.token : null;
    if (own) record = await api.ownGame(id, own).catch(() => record);
    // The replay exists exactly when the game's record gives its moves
    // (protocol.md, "Replays"): without them it would be refused (403).
    if (record.moves == null) unpublished = true;
    else {
      try {
        replay = own ? await api.ownReplay(id, own) : await api.replay(id);
      } catch (err) {
        // Refused all the same (a token no longer the player's, say).
        if (err.status === 403) unpublished = true;
        else msg.textContent = t('err.generic', { message: err.message || err.code });
      }
    }
    if (gone) return;
    if (replay) stepper = new ReplayStepper(replay, { view, onStep: showStep, drain: () => !playing });
    render();
    if (replay) {
      const wanted = Number.parseInt(params.move, 10);
      jump(Number.isFinite(wanted) ? wanted : 0);
    }
    // Come from a results table's Verify: its verdict without a second click.
    if (params.verify === '1') verify();
  }

  return loadingPage(render, load, () => {
    gone = true;
    playing = false;
    if (stepper) stepper.dispose();
    debug = null;
    setSpeed(animBase);
  });
}

// A replay is read over HTTP (a player's own hidden game with the token this
// browser keeps): a visitor reads a public one without choosing a name.
replayPage.forVisitors = () => true;
