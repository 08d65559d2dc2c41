// The JSON examples of docs/protocol.md against the WebSocket schemas of
// protocol/schema: every ```json block that parses as a message (an object
// with a `type`, or a list of them) must be valid for the side whose schema
// defines that type. Blocks that are not messages (HTTP bodies, fragments)
// are counted and left to the OpenAPI checks. Run: node check_doc_examples.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wsValidators, explain, schemaDir } from './ws_schemas.mjs';

const docPath = join(schemaDir, '..', '..', 'docs', 'protocol.md');
const text = readFileSync(docPath, 'utf8');
const { client, server } = wsValidators();

// The text of each top-level {...} or [...] in `text`, in order.
function topLevelValues(text) {
  const out = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (inString) {
      if (c === '\\') ++i;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && depth > 0 && --depth === 0) {
      out.push(text.slice(start, i + 1));
    }
  }
  return out;
}

let checked = 0;
let skipped = 0;
const failures = [];
const lines = text.split('\n');
for (let i = 0; i < lines.length; ++i) {
  if (lines[i].trim() !== '```json') continue;
  const start = i + 1;
  let end = start;
  while (end < lines.length && lines[end].trim() !== '```') ++end;
  const body = lines.slice(start, end).join('\n');
  i = end;
  // A block holds one or several JSON values (a request and its answer),
  // each possibly over several lines; one shortened with `...` is not JSON
  // and is left out.
  const values = [];
  for (const chunk of topLevelValues(body)) {
    try {
      values.push(JSON.parse(chunk));
    } catch {
      ++skipped;
    }
  }
  for (const value of values.flatMap((v) => (Array.isArray(v) ? v : [v]))) {
    if (!value || typeof value !== 'object' || typeof value.type !== 'string') {
      ++skipped;
      continue;
    }
    const sides = [client, server].filter((v) => v.byType.has(value.type));
    if (sides.length === 0) {
      failures.push(`docs/protocol.md:${start}: unknown message type ${JSON.stringify(value.type)}`);
      continue;
    }
    ++checked;
    if (!sides.some((validate) => validate(value))) {
      failures.push(`docs/protocol.md:${start}: ${explain(sides[0], value)}`);
    }
  }
}
for (const f of failures) console.error(f);
console.log(`${checked - failures.length} passed, ${failures.length} failed (${skipped} blocks or values not messages)`);
process.exit(failures.length === 0 ? 0 : 1);
