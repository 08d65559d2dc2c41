// Checks what the integration tests received (tests/server/message_log.hpp)
// against the contract's machine-readable form:
//   every WebSocket message against protocol/schema/server_message.schema.json,
//   every HTTP answer against protocol/schema/openapi.json (status, media
//   type, and the body's schema when it is JSON).
//
//   node tests/schema/check_recorded.mjs DIR           check DIR/*.jsonl
//   node tests/schema/check_recorded.mjs --reset DIR   empty DIR (before the tests)
//
// CTest runs both around the server and crash tests (a fixture: see
// tests/server/CMakeLists.txt). Exit 0 when everything matches, 1 with the
// failures (each with its test's name) otherwise.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { explain, schemaDir, wsValidators } from './ws_schemas.mjs';
import { loadOpenApi } from './openapi_schemas.mjs';

const args = process.argv.slice(2);
if (args[0] === '--reset' && args.length === 2) {
  rmSync(args[1], { recursive: true, force: true });
  mkdirSync(args[1], { recursive: true });
  process.exit(0);
}
if (args.length !== 1) {
  console.error('usage: check_recorded.mjs [--reset] DIR');
  process.exit(2);
}
const dir = args[0];
if (!existsSync(dir)) {
  console.error(`check_recorded: ${dir} does not exist (run through ctest, which creates it)`);
  process.exit(1);
}

const ws = wsValidators();
const http = await loadOpenApi(join(schemaDir, 'openapi.json'));

const counts = { ws: 0, http: 0 };
// One entry per distinct problem: a count, the first test and message.
const failures = new Map();
const fail = (test, what, sample) => {
  const seen = failures.get(what);
  if (seen) seen.count += 1;
  else failures.set(what, { count: 1, test, sample });
};

for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line);
    if (entry.kind === 'ws') {
      counts.ws += 1;
      if (!ws.server(entry.message)) {
        fail(entry.test, `ws: ${explain(ws.server, entry.message)}`, JSON.stringify(entry.message));
      }
    } else if (entry.kind === 'http') {
      counts.http += 1;
      const problem = http.checkAnswer(entry);
      if (problem) {
        const path = entry.target.split('?')[0];
        fail(entry.test, `http ${entry.method} ${http.matchPath(path) ?? path} -> ${entry.status}: ${problem}`,
          `${entry.method} ${entry.target}` + (entry.body === null ? '' : ` ${JSON.stringify(entry.body)}`));
      }
    }
  }
}

if (counts.ws + counts.http === 0) {
  console.error(`check_recorded: nothing was recorded in ${dir} (does TILECRUSH_MESSAGE_LOG reach the tests?)`);
  process.exit(1);
}
if (failures.size) {
  console.error(`check_recorded: ${failures.size} kinds of answers do not match protocol/schema:`);
  for (const [what, { count, test, sample }] of [...failures].slice(0, 40)) {
    console.error(`- ${what}\n    ${count}x; first in ${test || 'a test'}: ${sample.slice(0, 400)}`);
  }
  process.exit(1);
}
console.log(`check_recorded: ${counts.ws} WebSocket messages and ${counts.http} HTTP answers match protocol/schema`);
