// A confirmation in the site's style (a card over the page, like the name
// dialog): a title, what will happen, and two buttons. Resolves true for
// the confirming button, false for the other one, Escape or a click beside
// the card. One at a time: a second call while one is open gets the same
// answer.

import { h } from './dom.js';

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
      document.removeEventListener('keydown', onKey, true);
      overlay.remove();
      open = null;
      if (previous && previous.focus) previous.focus();
      resolve(answer);
    };
    const onKey = (e) => {
      // Keys do not reach the page under the dialog (the board's keyboard
      // control); the buttons' own Enter and Space still work.
      e.stopPropagation();
      if (e.key === 'Escape') {
        e.preventDefault();
        done(false);
      } else if (e.key === 'Tab') {
        // Focus stays on the two buttons.
        e.preventDefault();
        (document.activeElement === okBtn ? cancelBtn : okBtn).focus();
      }
    };
    okBtn.addEventListener('click', () => done(true));
    cancelBtn.addEventListener('click', () => done(false));
    overlay.addEventListener('click', (e) => { if (e.target === overlay) done(false); });
    document.addEventListener('keydown', onKey, true);
    document.body.append(overlay);
    // The safe choice has the focus: Enter alone never gives a game away.
    cancelBtn.focus();
  });
  return open;
}
