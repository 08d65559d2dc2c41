// An address that leads to no page: a path other than `/` (the server
// answers such an address with this client and status 404), or a view the
// router does not know. Says so, and offers the way home; needs no player.

import { h, link } from '../dom.js';

// The card itself, for a page that finds out later that what its address
// names does not exist (a game id nobody has, a seed the server refuses):
// title and note are i18n keys; `more` are other ways on, before the home
// page's link.
export function notFoundCard({ title = 'notFound.title', note = 'notFound.note', more = [] } = {}) {
  return h('section', { class: 'card not-found', testid: 'not-found' },
    h('h2', { i18n: title, testid: 'not-found-title' }),
    h('p', { i18n: note, testid: 'not-found-note' }),
    more.map((a) => h('p', {}, a)),
    h('p', {}, link('/', null, { i18n: 'notFound.home', testid: 'not-found-home' })));
}

export function notFoundPage(root) {
  root.append(notFoundCard());
}
notFoundPage.withoutPlayer = () => true;
