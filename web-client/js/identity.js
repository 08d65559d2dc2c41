// The player's name and token, kept in localStorage, and the dialog that
// asks for a name the first time (or when the server refuses one).

import { h } from './dom.js';
import { t } from './i18n.js';

const STORE = 'tilecrush.identity';
let pendingAsk = null;

export const identity = {
  get() {
    try {
      const v = JSON.parse(localStorage.getItem(STORE) || 'null');
      return v && typeof v.name === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  save(v) {
    try { localStorage.setItem(STORE, JSON.stringify({ name: v.name, token: v.token })); } catch { /* session only */ }
  },
  // Shows a modal form and resolves with a valid name. A second call while
  // the form is open (a reconnect meanwhile) shares the same form.
  askName(reason) {
    if (pendingAsk) return pendingAsk;
    pendingAsk = new Promise((resolve) => {
      const previous = identity.get();
      const input = h('input', { type: 'text', maxlength: 32, required: true, autocomplete: 'nickname',
        testid: 'name-input', id: 'name-input', value: (previous && previous.name) || '' });
      const error = h('p', { class: 'message', testid: 'name-error' },
        reason === 'taken' ? t('name.taken') : reason === 'invalid' ? t('name.invalid') : '');
      const form = h('form', { class: 'name-form card', testid: 'name-form' },
        h('h2', { i18n: 'name.title' }),
        h('label', { for: 'name-input', i18n: 'name.hint' }), input, error,
        h('button', { type: 'submit', class: 'primary', testid: 'name-submit', i18n: 'name.ok' }));
      const overlay = h('div', { class: 'overlay', testid: 'name-dialog' }, form);
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const name = input.value.trim();
        // 1-32 characters (code points), no control characters.
        if ([...name].length < 1 || [...name].length > 32 || /\p{Cc}/u.test(name)) {
          error.textContent = t('name.invalid');
          return;
        }
        overlay.remove();
        pendingAsk = null;
        resolve(name);
      });
      document.body.append(overlay);
      input.focus();
    });
    return pendingAsk;
  },
};
