// The server cannot be reached: what a page read over HTTP shows instead of
// staying blank. A request that got no answer at all (api.js's code
// `network`: the server is down, or this device is offline) or a gateway's
// 502/503/504 is not an answer about the page; the notice says so in the
// page, offers Retry, and tries again by itself (every few seconds, and at
// once when the browser says it is back online) until the page's load
// succeeds. One notice per page, shared by every page that reads the API.

import { h } from './dom.js';
import { t } from './i18n.js';

const AUTO_MS = [2000, 4000, 8000, 15000];

export function isUnreachable(err) {
  return !!err && (err.code === 'network' || err.status === 0 || [502, 503, 504].includes(err.status));
}

// A failure in words for a line of a page: the server's own message for an
// answer, this client's sentence when there was none.
export function failureText(err) {
  if (isUnreachable(err)) return t('net.unreachable.short');
  return t('err.generic', { message: (err && (err.message || err.code)) || '?' });
}

// retry(): the page loads again; it calls notice.show(err) on a failure and
// notice.hide() on success. show() returns whether the failure was the
// server being unreachable (else the page says what went wrong itself).
export function unreachableNotice(retry) {
  const button = h('button', { type: 'button', class: 'primary', testid: 'unreachable-retry', i18n: 'net.unreachable.retry' });
  const el = h('div', { class: 'card unreachable', testid: 'unreachable', role: 'alert', hidden: true },
    h('h2', { i18n: 'net.unreachable.title' }),
    h('p', { i18n: 'net.unreachable.note' }),
    h('p', {}, button));
  let timer = null;
  let tries = 0;
  let running = false;
  let stopped = false;

  async function again() {
    if (running || stopped) return;
    clearTimeout(timer);
    timer = null;
    running = true;
    button.disabled = true;
    try {
      await retry();
    } finally {
      running = false;
      button.disabled = false;
    }
    if (!el.hidden) schedule();
  }
  function schedule() {
    if (stopped || running || timer) return;
    timer = setTimeout(again, AUTO_MS[Math.min(tries, AUTO_MS.length - 1)]);
    tries += 1;
  }
  const onOnline = () => { if (!el.hidden) again(); };
  button.addEventListener('click', () => { tries = 0; again(); });
  window.addEventListener('online', onOnline);

  return {
    el,
    show(err) {
      if (!isUnreachable(err)) { this.hide(); return false; }
      el.hidden = false;
      schedule();
      return true;
    },
    hide() {
      el.hidden = true;
      tries = 0;
      clearTimeout(timer);
      timer = null;
    },
    get shown() { return !el.hidden; },
    stop() {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    },
  };
}
