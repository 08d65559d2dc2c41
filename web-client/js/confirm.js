// A confirmation in the site's style (a card over the page, like the name
// dialog): a title, what will happen, and two buttons. Resolves true for
// the confirming button, false for the other one, Escape or a click beside
// the card. One at a time: a second call while one is open gets the same
// answer.

import { h } from './dom.js';
import { holdFocus, focusBack } from './modal.js';

let open = null;

export function confirmDialog({ title, text, ok, cancel, danger = false }) {
  if (open) return open;
  open = new Promise((resolve) => {
    const previous = document.activeElement;
    const okBtn = h('button', { type: 'button', class: danger ? 'danger' : 'primary', testid: 'confirm-ok' }, ok);
    const cancelBtn = h('button', { type: 'button', testid: 'confirm-cancel' }, cancel);
    const titleId = 'confirm-title';
    const card = h('div', { class: 'confirm card', role: 'alertdialog', 'aria-modal': 'true',
      'aria-labelledby': titleId },
    h('h2', { id: titleId }, title),
    h('p', { testid: 'confirm-text' }, text),
    h('div', { class: 'confirm-actions' }, cancelBtn, okBtn));
    const overlay = h('div', { class: 'overlay', testid: 'confirm-dialog' }, card);
    const done = (answer) => {
      release(focusBack(previous));
      overlay.remove();
      open = null;
      resolve(answer);
    };
    // Tab goes round the two buttons, Escape cancels (modal.js).
    const release = holdFocus(card, { onEscape: () => done(false) });
    okBtn.addEventListener('click', () => done(true));
    cancelBtn.addEventListener('click', () => done(false));
    overlay.addEventListener('click', (e) => { if (e.target === overlay) done(false); });
    document.body.append(overlay);
    // The safe choice has the focus: Enter alone never gives a game away.
    cancelBtn.focus();
  });
  return open;
}
