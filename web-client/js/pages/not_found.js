// An address that leads to no page: a path other than `/` (the server
// answers such an address with this client and status 404), or a view the
// router does not know. Says so, and offers the way home; needs no player.

import { h, link } from '../dom.js';

export function notFoundPage(root) {
  root.append(h('section', { class: 'card not-found', testid: 'not-found' },
    h('h2', { i18n: 'notFound.title' }),
    h('p', { i18n: 'notFound.note' }),
    h('p', {}, link('/', null, { i18n: 'notFound.home', testid: 'not-found-home' }))));
}
notFoundPage.withoutPlayer = () => true;
