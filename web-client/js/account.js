// The account panel, opened beside the player's name in the header: what
// a recovery code is for, and the button that asks the server for one
// (protocol.md, "Recovery codes"). The code is shown once, in this panel
// only: it is never stored in the browser, and is gone when the panel
// closes. Sign out (a shared browser): this device forgets the name and its
// token, after a question that says the code is what brings it back.

import { h } from './dom.js';
import { t } from './i18n.js';
import { copyOrSelect } from './clipboard.js';
import { confirmDialog } from './confirm.js';
import { holdFocus, focusBack } from './modal.js';
import { identity } from './identity.js';

let open = null;

// A page read without a connection (a visitor's page) connects when a code
// is asked for, and gives up after this long (the server down, say).
const CONNECT_WITHIN_MS = 10000;

// net: the Connection (request, player, status); connect: starts it on a
// page that has none.
export function openAccountPanel(net, { connect = null } = {}) {
  if (open) return open;
  const opener = document.activeElement;
  const status = h('p', { class: 'message', testid: 'recovery-status', role: 'status' });
  const shown = h('div', { class: 'recovery-shown', testid: 'recovery-shown', hidden: true });
  const get = h('button', { type: 'button', class: 'primary', testid: 'recovery-get', i18n: 'account.get' });
  const close = h('button', { type: 'button', testid: 'account-close', i18n: 'account.close' });
  const signOut = h('button', { type: 'button', testid: 'account-signout', i18n: 'account.signOut' });
  const name = net.player ? net.player.name : (identity.get()?.name || '');
  const panel = h('div', { class: 'account-panel card', testid: 'account-panel', role: 'dialog',
    'aria-modal': 'true', 'aria-labelledby': 'account-title' },
  h('h2', { id: 'account-title', i18n: 'account.title' }),
  h('p', { testid: 'account-name' }, t('account.signedIn', { name })),
  h('p', { i18n: 'account.why' }),
  h('p', { class: 'note', i18n: 'account.replaces' }),
  get, shown, status,
  h('div', { class: 'account-actions' }, signOut, close));
  const overlay = h('div', { class: 'overlay', testid: 'account-dialog' }, panel);

  // Closed, the focus goes back where it was (the Account button).
  const dismiss = () => {
    release(focusBack(opener));
    overlay.remove();
    open = null;
  };
  // Tab stays in the panel, Escape closes it (modal.js).
  const release = holdFocus(panel, { onEscape: dismiss });
  close.addEventListener('click', dismiss);
  overlay.addEventListener('click', (e) => { if (e.target === overlay) dismiss(); });

  let codeShown = false;
  signOut.addEventListener('click', async () => {
    if (!await confirmDialog({ title: t('account.signOutTitle', { name }), text: t('account.signOutText', { name }),
      ok: t('account.signOutOk'), cancel: t('account.signOutKeep'), danger: true })) return;
    identity.forget();
    // A fresh start as a visitor: the connection, the pages and their
    // stored views all forget the name with the page.
    location.assign('/');
  });
  get.addEventListener('click', async () => {
    // A code on screen may be half written down: replacing it is asked first.
    if (codeShown && !await confirmDialog({ title: t('account.againTitle'), text: t('account.againText'),
      ok: t('account.againOk'), cancel: t('account.againKeep'), danger: true })) return;
    get.disabled = true;
    status.textContent = '';
    // The button, disabled meanwhile, loses the focus: it goes on to the
    // code (to read it or copy it), or back to the button after a failure.
    let next = get;
    try {
      const reply = await askCode(net, connect);
      next = showCode(shown, reply.code, status);
      codeShown = true;
      // Asking again would replace the code just shown: no longer the
      // panel's main action.
      get.classList.remove('primary');
      get.dataset.i18n = 'account.again';
      get.textContent = t('account.again');
    } catch (err) {
      status.textContent = t('account.failed', { code: err.code || 'error' });
    } finally {
      get.disabled = false;
    }
    if (overlay.isConnected) next.focus();
  });

  document.body.append(overlay);
  get.focus();
  open = overlay;
  return overlay;
}

// A connected page asks at once (offline: it fails, as any request would);
// a page without a connection connects first and waits for the hello.
function askCode(net, connect) {
  if (net.status !== 'idle' || !connect) return net.request('recovery_code', {}, { wait: false });
  connect();
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject({ code: 'disconnected', message: 'not connected' }), CONNECT_WITHIN_MS);
  });
  return Promise.race([net.request('recovery_code', {}), late]).finally(() => clearTimeout(timer));
}

function showCode(shown, code, status) {
  const text = h('code', { class: 'recovery-code', testid: 'recovery-code', tabindex: '-1' }, code);
  const copy = h('button', { type: 'button', testid: 'recovery-copy', i18n: 'account.copy' });
  copy.addEventListener('click', async () => {
    status.textContent = t(await copyOrSelect(code, text) ? 'account.copied' : 'account.copyManually');
  });
  shown.replaceChildren(
    h('p', { i18n: 'account.showOnce' }),
    h('div', { class: 'recovery-code-row' }, text, copy),
    h('p', { class: 'note', i18n: 'account.keepSafe' }));
  shown.hidden = false;
  return text;
}
