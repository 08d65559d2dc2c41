// Checks the WebSocket JSON Schemas of protocol/schema: each compiles with
// ajv's Ajv2020 in strict mode (no unknown keyword, no ambiguous type), and
// every message type of docs/protocol.md has one definition per direction.
// Prints one summary line and exits 0, or prints the errors and exits 1.
//
//   node tests/schema/lint_ws_schemas.mjs
import { wsValidators } from './ws_schemas.mjs';

const expected = {
  client: ['hello', 'new_game', 'resume', 'click', 'swap', 'peek', 'select', 'unselect', 'preview',
    'hint', 'undo', 'resign', 'create_room', 'join_room', 'leave_room', 'start_room', 'ping',
    'running', 'recovery_code'],
  server: ['welcome', 'game', 'events', 'preview', 'hint', 'room', 'pong', 'error', 'room_started',
    'room_progress', 'room_events', 'room_game', 'room_finished', 'running', 'recovery_code'],
};

let validators;
try {
  validators = wsValidators();
} catch (e) {
  console.error(`lint_ws_schemas: protocol/schema does not compile: ${e.message}`);
  process.exit(1);
}
const errors = [];
for (const side of ['client', 'server']) {
  const types = [...validators[side].byType.keys()];
  for (const t of expected[side]) if (!types.includes(t)) errors.push(`${side}: no definition of "${t}"`);
  for (const t of types) if (!expected[side].includes(t)) errors.push(`${side}: "${t}" is not a message type of docs/protocol.md`);
}
if (errors.length) {
  console.error(`lint_ws_schemas: ${errors.join('; ')}`);
  process.exit(1);
}
console.log(`lint_ws_schemas: ${expected.client.length} client and ${expected.server.length} server message types (ajv strict)`);
