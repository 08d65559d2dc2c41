// The player's name and token, kept in localStorage, and the dialog that
// asks for a name the first time (or when the server refuses one), where
// the owner of a taken name may sign in with its recovery code instead
// (protocol.md, "Recovery codes").

import { h } from './dom.js';
import { t } from './i18n.js';
import { holdFocus, focusBack } from './modal.js';
import { nameProblem, NAME_PROBLEM_KEYS } from './names.js';
import { watchesRoom } from './rooms/state.js';

const STORE = 'tilecrush.identity';
let pendingAsk = null;

// On a link to watch a room: why a spectator needs a name too, and that the
// players see only how many watch (protocol.md, rooms: `spectators`).
function watchNote() {
  const p = Object.fromEntries(new URLSearchParams(location.search));
  const watching = p.view === 'rooms' && p.room && watchesRoom(p);
  return watching ? h('p', { class: 'note', testid: 'name-watch-note', i18n: 'name.watchNote' }) : null;
}

export const identity = {
  get() {
    try {
      const v = JSON.parse(localStorage.getItem(STORE) || 'null');
      return v && typeof v.name === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  // The stored token when the stored name is `name`, else null.
  tokenFor(name) {
    const v = identity.get();
    return v && v.name === name && typeof v.token === 'string' ? v.token : null;
  },
  save(v) {
    try { localStorage.setItem(STORE, JSON.stringify({ name: v.name, token: v.token })); } catch { /* session only */ }
  },
  // Sign out on this device: the name and its token are forgotten here (the
  // name stays the player's: its recovery code brings it back anywhere).
  forget() {
    try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
  },
  // Shows a modal form and resolves with a valid name, or with
  // {name, recovery} when the player signs in with a recovery code, or with
  // null when the player closes it ("Not now" or Escape: a visitor who only
  // came to look is never held by it). A second call while the form is open
  // (a reconnect meanwhile) shares the same form.
  // reason: null, 'taken', 'invalid', 'recovery_wrong' or 'recovery_locked';
  // name: the name to show (the one just refused).
  askName(reason, name) {
    if (pendingAsk) return pendingAsk;
    pendingAsk = new Promise((resolve) => {
      const previous = identity.get();
      const input = h('input', { type: 'text', maxlength: 32, required: true, autocomplete: 'nickname',
        testid: 'name-input', id: 'name-input', value: name || (previous && previous.name) || '' });
      const messages = { taken: 'name.taken', invalid: 'name.invalid',
        recovery_wrong: 'recover.wrong', recovery_locked: 'recover.locked' };
      const error = h('p', { class: 'message', testid: 'name-error' },
        messages[reason] ? t(messages[reason]) : '');
      // Recovery: only offered once a name was refused as taken.
      const recovering = reason === 'recovery_wrong' || reason === 'recovery_locked';
      const code = h('input', { type: 'text', maxlength: 64, autocomplete: 'off', spellcheck: 'false',
        autocapitalize: 'characters', testid: 'recovery-input', id: 'recovery-input',
        placeholder: 'XXXXX-XXXXX-XXXXX-XXXXX' });
      const recovery = h('div', { class: 'recovery-fields', testid: 'recovery-fields', hidden: !recovering },
        h('label', { for: 'recovery-input', i18n: 'recover.label' }), code,
        h('p', { class: 'note', i18n: 'recover.help' }));
      const mine = h('button', { type: 'button', class: 'link-button', testid: 'recover-open',
        i18n: 'recover.open', hidden: recovering || reason !== 'taken' });
      mine.addEventListener('click', () => {
        recovery.hidden = false;
        mine.hidden = true;
        // "That name is taken: choose another" no longer applies: the
        // player is signing in to it.
        error.textContent = '';
        code.focus();
      });
      const later = h('button', { type: 'button', testid: 'name-cancel', i18n: 'name.later' });
      const form = h('form', { class: 'name-form card', testid: 'name-form', role: 'dialog', 'aria-modal': 'true',
        'aria-labelledby': 'name-title' },
        h('h2', { id: 'name-title', i18n: 'name.title' }),
        h('label', { for: 'name-input', i18n: 'name.hint' }), watchNote(), input, error, mine, recovery,
        h('div', { class: 'name-actions' }, later,
          h('button', { type: 'submit', class: 'primary', testid: 'name-submit', i18n: 'name.ok' })));
      const overlay = h('div', { class: 'overlay', testid: 'name-dialog' }, form);
      // The control that had the focus (the link that led to a page needing
      // a name): closed, the focus goes back there, or to the page.
      const opener = document.activeElement;
      const close = (answer) => {
        // With a name given, a page whose board waited for it (an address
        // opened) gives the focus to the board, where play begins.
        const back = focusBack(opener);
        const toBoard = () => {
          const el = back();
          return (el && el.id === 'main' && el.querySelector('[data-testid="board"][tabindex]')) || el;
        };
        release(answer ? toBoard : back);
        overlay.remove();
        pendingAsk = null;
        resolve(answer);
      };
      // Tab stays in the dialog; Escape wherever the focus is (a click on the
      // backdrop moves it off the form) is "Not now" (modal.js).
      const release = holdFocus(form, { onEscape: () => close(null) });
      later.addEventListener('click', () => close(null));
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const name = input.value.trim();
        // 1-32 characters (code points), no control characters.
        if ([...name].length < 1 || [...name].length > 32 || /\p{Cc}/u.test(name)) {
          error.textContent = t('name.invalid');
          return;
        }
        // A name people see must show something (protocol.md, "Fields").
        const problem = nameProblem(name);
        if (problem) {
          error.textContent = t(NAME_PROBLEM_KEYS[problem]);
          return;
        }
        // An empty code field signs in as without one (another name, say).
        const typed = recovery.hidden ? '' : code.value.trim();
        if ([...typed].length > 64 || /\p{Cc}/u.test(typed)) {
          error.textContent = t('recover.wrong');
          return;
        }
        close(typed ? { name, recovery: typed } : name);
      });
      document.body.append(overlay);
      if (recovering) code.focus(); else input.focus();
    });
    return pendingAsk;
  },
};
