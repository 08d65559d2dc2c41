// Copying a text for the player: the clipboard where the page may write
// it, else the text selected on the page for a copy by hand. Every copy
// button goes through copyOrSelect, so none says "copied" when nothing was
// (navigator.clipboard is missing on plain http from another address, and
// refuses without the permission).

import { h } from './dom.js';
import { t } from './i18n.js';

// Selects what `node` shows: an input's (or textarea's) value, focused so
// that a keyboard copy takes it, or the element's text.
function select(node) {
  if (!node) return;
  if (typeof node.select === 'function') {
    node.focus({ preventScroll: true });
    node.select();
    return;
  }
  const range = document.createRange();
  range.selectNodeContents(node);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

// Copies `text`; where the clipboard refuses (permissions, plain http)
// selects `node`'s contents instead (`node` may be a function giving the
// element, called only then, when the text is shown only for that). True
// when it was copied.
export async function copyOrSelect(text, node) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    select(typeof node === 'function' ? node() : node);
    return false;
  }
}

// The message after a copy that was not done: what was selected instead.
export const SELECTED_KEY = 'copy.selected';

// A "Copy link" button for the link shown in `input` (a readonly input
// beside it), and the status that says what happened: "Link copied", or
// the link selected in its field for a copy by hand. Returns
// {button, status}; both go in the link's row.
export function copyLinkButton(input, testid) {
  const button = h('button', { type: 'button', testid, i18n: 'btn.share' });
  const status = h('span', { class: 'copy-status muted', testid: `${testid}-status`, role: 'status' });
  button.addEventListener('click', async () => {
    status.textContent = '';
    const copied = await copyOrSelect(input.value, input);
    status.dataset.i18n = copied ? 'btn.copied' : SELECTED_KEY;
    status.textContent = t(status.dataset.i18n);
  });
  return { button, status };
}
