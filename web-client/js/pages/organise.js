// The organiser form (/?view=organise): POST /api/competitions with the
// organiser's bearer token (issued by the operator with
// `tilecrush_server --add-organiser NAME`, kept in localStorage). Times are
// picked in the browser's time zone and sent as ISO 8601 UTC. On 201 the
// new competition's link is shown; on 400 or 401 the server's message.

import { h, clear, link } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { MODES, PRESETS, loadChoice, saveChoice } from '../presets.js';
import { api } from '../api.js';
import { COUNTS, compUrl, createBody, localInputToIso, openNowIso, toLocalInput } from '../competitions/logic.js';

const TOKEN_KEY = 'tilecrush.organiserToken';
const CHOICE_KEY = 'tilecrush.organiseChoice';

export function organiserToken() {
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}

function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch { /* kept for this page only */ }
}

let uid = 0;
function field(labelKey, control, extra = null) {
  uid += 1;
  control.id = control.id || `org-field-${uid}`;
  return [h('label', { for: control.id, i18n: labelKey }), h('div', { class: 'org-control' }, control, extra)];
}

function checkbox(testid, labelKey, checked = false) {
  const box = h('input', { type: 'checkbox', testid, checked });
  return { box, el: h('label', { class: 'check' }, box, h('span', { i18n: labelKey })) };
}

export function organisePage(root, app) {
  const choice = loadChoice(CHOICE_KEY);
  const hour = 3600 * 1000;
  const opensDefault = Math.ceil((Date.now() + hour) / hour) * hour;

  const tokenIn = h('input', { type: 'password', testid: 'org-token', autocomplete: 'off', spellcheck: false,
    value: organiserToken() });
  const nameIn = h('input', { type: 'text', maxlength: 64, testid: 'org-name', required: true });
  const modeSel = h('select', { testid: 'org-mode' });
  const presetSel = h('select', { testid: 'org-preset' });
  const opensIn = h('input', { type: 'datetime-local', step: 1, testid: 'org-opens', value: toLocalInput(opensDefault) });
  const openNow = checkbox('org-open-now', 'org.openNow');
  const closesIn = h('input', { type: 'datetime-local', step: 1, testid: 'org-closes',
    value: toLocalInput(opensDefault + 2 * hour) });
  const attemptsIn = h('input', { type: 'number', min: 1, max: 100, step: 1, value: '3', testid: 'org-attempts',
    inputmode: 'numeric' });
  const unlimited = checkbox('org-unlimited', 'org.unlimited');
  const countsSel = h('select', { testid: 'org-counts' });
  const unlisted = checkbox('org-unlisted', 'org.unlisted');
  const tz = (Intl.DateTimeFormat().resolvedOptions().timeZone) || 'local';
  const tzNote = h('p', { class: 'note org-wide' });
  const submit = h('button', { type: 'submit', class: 'primary', testid: 'org-submit', i18n: 'org.create' });
  const message = h('p', { class: 'message org-wide', testid: 'org-message', role: 'status' });
  const created = h('div', { class: 'org-created org-wide', testid: 'org-created', hidden: true });

  function fill() {
    clear(modeSel).append(...MODES.map((m) => h('option', { value: m }, t(`mode.${m}`))));
    modeSel.value = choice.mode;
    clear(presetSel).append(...PRESETS[choice.mode].map((p) => h('option', { value: p }, t(`preset.${p}`))));
    if (!PRESETS[choice.mode].includes(choice.preset)) [choice.preset] = PRESETS[choice.mode];
    presetSel.value = choice.preset;
    const counts = countsSel.value || 'best';
    clear(countsSel).append(...COUNTS.map((c) => h('option', { value: c }, t(`org.counts.${c}`))));
    countsSel.value = counts;
    tzNote.textContent = t('org.tz', { tz });
  }
  modeSel.addEventListener('change', () => { choice.mode = modeSel.value; fill(); saveChoice(CHOICE_KEY, choice); });
  presetSel.addEventListener('change', () => { choice.preset = presetSel.value; saveChoice(CHOICE_KEY, choice); });
  openNow.box.addEventListener('change', () => { opensIn.disabled = openNow.box.checked; });
  unlimited.box.addEventListener('change', () => { attemptsIn.disabled = unlimited.box.checked; });

  let lastLink = null;
  function showCreated(view) {
    lastLink = new URL(compUrl(view.id), location.origin).href;
    const input = h('input', { readonly: true, value: lastLink, testid: 'org-created-link', 'aria-label': t('comp.share') });
    clear(created).append(
      h('p', { i18n: 'org.created' }),
      h('div', { class: 'share' }, input,
        link(compUrl(view.id), null, { class: 'button primary', testid: 'org-open-page', i18n: 'org.openPage' })));
    created.dataset.id = view.id;
    created.hidden = false;
  }

  const form = h('form', { class: 'card org-form', testid: 'organise-form', novalidate: true },
    h('h2', { class: 'org-wide', i18n: 'org.title' }),
    h('p', { class: 'note org-wide', i18n: 'org.intro' }),
    ...field('org.token', tokenIn),
    ...field('org.name', nameIn),
    ...field('mode.label', modeSel),
    ...field('preset.label', presetSel),
    ...field('org.opens', opensIn, openNow.el),
    ...field('org.closes', closesIn),
    tzNote,
    ...field('org.attempts', attemptsIn, unlimited.el),
    ...field('org.counts', countsSel),
    h('div', { class: 'org-wide' }, unlisted.el),
    h('div', { class: 'org-wide' }, submit),
    message, created);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    message.textContent = '';
    const token = tokenIn.value.trim();
    if (!token) { message.textContent = t('org.err.token'); tokenIn.focus(); return; }
    saveToken(token);
    const built = createBody({
      name: nameIn.value, mode: modeSel.value, preset: presetSel.value,
      opensIso: openNow.box.checked ? openNowIso() : localInputToIso(opensIn.value),
      closesIso: localInputToIso(closesIn.value),
      unlimited: unlimited.box.checked, attempts: attemptsIn.value, counts: countsSel.value,
      unlisted: unlisted.box.checked,
    }, PRESETS);
    if (built.error) { message.textContent = t(built.error); return; }
    submit.disabled = true;
    try {
      const view = await api.createCompetition(built.body, token);
      showCreated(view);
    } catch (err) {
      created.hidden = true;
      message.textContent = err.status === 401 || err.status === 403
        ? t('org.err.unauthorized', { message: err.message })
        : t('org.err.server', { message: err.message || err.code });
    } finally {
      submit.disabled = false;
    }
  });

  fill();
  root.append(h('section', { class: 'organise', testid: 'organise-page' }, form));
  return onLangChange(() => {
    fill();
    if (!created.hidden && lastLink) created.querySelector('[data-testid="org-created-link"]').setAttribute('aria-label', t('comp.share'));
  });
}
