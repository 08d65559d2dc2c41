// Multiplayer rooms (protocol.md "Rooms", protocol/README.md "Additions").
//   /?view=rooms                    create a room, or join one by its code
//   /?view=rooms&room=CODE          join (or rejoin) as a player
//   /?view=rooms&room=CODE&watch=1  watch as a spectator
// The room itself is a RoomSession (js/rooms/session.js); pushes reach it
// through handlePush, which app.js calls for every message without an id.

import { h, link } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { normalizeCode, validCode, roomUrl, lastRoom, watchesRoom } from '../rooms/state.js';
import { createForm, joinForm } from '../rooms/views.js';
import { RoomSession } from '../rooms/session.js';

let session = null;

export function roomsPage(root, app, params) {
  const code = normalizeCode(params.room);
  // A code no room can have (`room=!!`, a typo) is not asked for: the join
  // form says so, with the code to correct.
  if (code && !validCode(code)) return landing(root, app, { code, error: 'rooms.err.badCode' });
  if (code) {
    let off = null;
    const s = new RoomSession(app, {
      code, watch: watchesRoom(params),
      // No room with this code: no room page (nor a Leave button for a room
      // never joined), the join form with the error.
      onMissing: () => {
        off();
        history.replaceState(null, '', '/?view=rooms');
        root.replaceChildren();
        off = landing(root, app, { code, error: 'rooms.err.notFound' });
      },
    });
    session = s;
    root.append(s.el);
    s.join();
    const offLang = onLangChange(() => s.refresh());
    off = () => {
      offLang();
      s.destroy();
      if (session === s) session = null;
    };
    return () => off();
  }
  return landing(root, app, {});
}

// Create a room, or join one by its code (`code` and `error`: the code a
// join was refused for, and why).
function landing(root, app, { code = '', error = '' }) {
  const message = h('p', { class: 'message', testid: 'room-message', role: 'status' });
  const create = createForm(async (fields) => {
    create.button.disabled = true;
    message.textContent = '';
    try {
      const answer = await app.net.request('create_room', fields);
      app.navigate(roomUrl(answer.room.code));
    } catch (err) {
      create.button.disabled = false;
      message.textContent = err.code === 'not_allowed' ? t('rooms.err.tooMany')
        : t('err.generic', { message: err.message || err.code });
    }
  });
  const join = joinForm((c, watch) => app.navigate(roomUrl(c, { watch })), { code, error });
  const last = lastRoom();
  const lastLink = last ? link(roomUrl(last.code, { watch: last.watch }), t('rooms.backTo', { code: last.code }),
    { testid: 'room-last-link' }) : null;
  root.append(h('section', { class: 'rooms', testid: 'rooms-page', dataset: { state: 'none' } },
    h('h2', { i18n: 'rooms.title' }),
    h('p', { class: 'note', i18n: 'rooms.intro' }),
    lastLink ? h('p', { testid: 'room-last' }, lastLink) : null,
    message, create.el, join));
  return onLangChange(() => {
    create.refresh();
    if (lastLink) lastLink.textContent = t('rooms.backTo', { code: last.code });
  });
}

// Entry point for messages without an id (room, room_started, room_progress,
// room_events, room_game, room_finished). Returns true when a room took it.
export function handlePush(msg) {
  return session ? session.handlePush(msg) : false;
}

// The room on screen, for tests and debugging (window.__tilecrush.room).
export function roomDebug() {
  return session ? session.debug() : null;
}

export function roomIdle() {
  return session ? session.idle() : Promise.resolve();
}
