// The focus of a modal dialog (the name dialog, the account panel, a
// confirmation): while it is open, Tab and Shift+Tab go round its own
// controls only, Escape closes it, and no key reaches the page under it
// (the board's keyboard control); the buttons' own Enter and Space still
// work. Dialogs stack: one opened over another (the account panel's
// confirmation) has the keys until it closes.

const stack = [];

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]';

function focusables(root) {
  return [...root.querySelectorAll(FOCUSABLE)].filter((el) => !el.disabled && el.tabIndex >= 0
    && el.getClientRects().length > 0 && !el.closest('[hidden]'));
}

function onKey(e) {
  const top = stack[stack.length - 1];
  if (!top) return;
  e.stopPropagation();
  if (e.key === 'Escape') {
    if (!top.onEscape) return;
    e.preventDefault();
    top.onEscape();
  } else if (e.key === 'Tab') {
    e.preventDefault();
    const items = focusables(top.root);
    if (!items.length) return;
    const i = items.indexOf(document.activeElement);
    const next = i < 0 ? (e.shiftKey ? items.length - 1 : 0)
      : (i + (e.shiftKey ? -1 : 1) + items.length) % items.length;
    items[next].focus();
  }
}

// Holds the keys and the focus in `root` until the returned release() is
// called. onEscape: what Escape does (none: Escape does nothing).
// release(focusTo): focusTo, a function giving the element to focus then
// (null: leave the focus alone).
export function holdFocus(root, { onEscape = null } = {}) {
  const entry = { root, onEscape };
  stack.push(entry);
  if (stack.length === 1) document.addEventListener('keydown', onKey, true);
  let released = false;
  return function release(focusTo = null) {
    if (released) return;
    released = true;
    stack.splice(stack.indexOf(entry), 1);
    if (!stack.length) document.removeEventListener('keydown', onKey, true);
    const el = focusTo && focusTo();
    if (el && el.focus) el.focus();
  };
}

// Where the focus goes back to when a dialog closes: the element that had
// it when the dialog opened, while it is still on the page; else the
// page's content (#main, the skip link's target), not the page's body.
export function focusBack(opener) {
  return () => (opener && opener !== document.body && opener.isConnected ? opener
    : document.getElementById('main'));
}
