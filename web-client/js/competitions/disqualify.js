// The organiser's confirmation before a disqualification, which cannot be
// undone: a modal dialog that names the player, asks for the reason (1-200
// characters, shown in the results) and for the player's name typed again.
// Only then does Disqualify call `send(reason)`; a refusal is shown in the
// dialog, which stays open. Cancel, Escape and a click outside the dialog
// close it without sending anything.
// Resolves true once `send` has succeeded, false when cancelled.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { dqCheck } from './logic.js';

let uid = 0;

export function confirmDisqualify(player, send) {
  uid += 1;
  const ids = { title: `dq-title-${uid}`, reason: `dq-reason-${uid}`, typed: `dq-typed-${uid}` };
  return new Promise((resolve) => {
    let sending = false;
    let done = false;
    const reason = h('input', { type: 'text', id: ids.reason, testid: 'dq-reason', autocomplete: 'off',
      required: true, 'aria-describedby': `${ids.reason}-count` });
    const count = h('span', { class: 'note', id: `${ids.reason}-count`, testid: 'dq-reason-count' });
    const typed = h('input', { type: 'text', id: ids.typed, testid: 'dq-typed', autocomplete: 'off',
      spellcheck: false, required: true });
    const error = h('p', { class: 'message', testid: 'dq-error', role: 'alert' });
    const confirm = h('button', { type: 'submit', class: 'danger', testid: 'dq-confirm', disabled: true },
      t('dq.confirm'));
    const cancel = h('button', { type: 'button', testid: 'dq-cancel' }, t('dq.cancel'));
    const form = h('form', { class: 'dq-form', novalidate: true },
      h('h2', { id: ids.title }, t('dq.title', { player })),
      h('p', {}, t('dq.explain', { player })),
      h('p', { class: 'bad', testid: 'dq-permanent' }, t('dq.permanent')),
      h('label', { for: ids.reason }, t('dq.reason')), reason, count,
      h('label', { for: ids.typed }, t('dq.typeName', { player })),
      h('code', { class: 'dq-name', testid: 'dq-name' }, player), typed,
      error,
      h('div', { class: 'controls' }, cancel, confirm));
    const dialog = h('dialog', { class: 'card dq-dialog', testid: 'dq-dialog', 'aria-labelledby': ids.title,
      dataset: { player } }, form);

    function update() {
      const c = dqCheck(player, reason.value, typed.value);
      count.textContent = t('dq.count', { n: c.length });
      confirm.disabled = sending || !c.ok;
    }
    function close(result) {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(result);
    }

    reason.addEventListener('input', update);
    typed.addEventListener('input', update);
    cancel.addEventListener('click', () => { if (!sending) close(false); });
    // Escape: the dialog's own cancel event.
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      if (!sending) close(false);
    });
    // A click on the backdrop cancels too: the event's target is then the
    // dialog itself, at a point outside its box (its own padding is inside).
    dialog.addEventListener('click', (e) => {
      if (e.target !== dialog || sending) return;
      const r = dialog.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) close(false);
    });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const c = dqCheck(player, reason.value, typed.value);
      if (!c.ok) { error.textContent = t(c.error); return; }
      if (sending) return;
      sending = true;
      error.textContent = '';
      update();
      cancel.disabled = true;
      try {
        await send(c.reason);
        close(true);
      } catch (err) {
        sending = false;
        cancel.disabled = false;
        update();
        error.textContent = t('org.err.server', { message: (err && (err.message || err.code)) || '' });
      }
    });

    update();
    document.body.append(dialog);
    dialog.showModal();
    reason.focus();
  });
}
