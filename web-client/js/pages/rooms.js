// Multiplayer rooms: a placeholder page. Another task builds the real one
// (protocol.md, "Rooms"): create_room / join_room / leave_room / start_room
// requests and the room_* pushes, which the connection already dispatches
// as `push` events (see handlePush below).

import { h } from '../dom.js';

export function roomsPage(root) {
  root.append(h('section', { class: 'rooms card', testid: 'rooms-page' },
    h('h2', { i18n: 'rooms.title' }),
    h('p', { i18n: 'rooms.soon' })));
  return null;
}

// Entry point for room messages without an id (room_started, room_progress,
// room_events, room_finished). Ignored until the rooms UI exists.
export function handlePush(msg) {
  return msg && typeof msg.type === 'string' && msg.type.startsWith('room_');
}
