// The WebSocket JSON Schemas of protocol/schema, compiled once with ajv
// (draft 2020-12, strict mode): validators for the messages a client sends
// and for those the server sends. Shared by check_recorded.mjs and the
// browser tests.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { explainErrors } from './openapi_schemas.mjs';

export const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'protocol', 'schema');

let compiled = null;

// { client, server }: ajv validate functions (errors in fn.errors).
export function wsValidators() {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const schemas = {};
  for (const file of readdirSync(schemaDir)) {
    if (!file.endsWith('.schema.json')) continue;
    schemas[file] = JSON.parse(readFileSync(join(schemaDir, file), 'utf8'));
    ajv.addSchema(schemas[file]);
  }
  const side = (file) => {
    const schema = schemas[file];
    if (!schema) throw new Error(`protocol/schema lacks ${file}`);
    const validate = ajv.getSchema(schema.$id);
    // One validator per message type, for errors about that type alone
    // (the top-level oneOf reports a failure for every alternative).
    validate.byType = new Map();
    for (const [name, def] of Object.entries(schema.$defs ?? {})) {
      const type = def?.properties?.type?.const;
      if (typeof type === 'string') validate.byType.set(type, ajv.getSchema(`${schema.$id}#/$defs/${name}`));
    }
    return validate;
  };
  compiled = { client: side('client_message.schema.json'), server: side('server_message.schema.json') };
  return compiled;
}

// Why `message` failed `validate`, in short: the errors of its own type's
// definition when its type is known, else those of the whole oneOf.
export function explain(validate, message) {
  const type = message && typeof message === 'object' ? message.type : undefined;
  let errors = validate.errors ?? [];
  const own = validate.byType?.get(type);
  if (own && !own(message)) errors = own.errors;
  else if (typeof type === 'string' && validate.byType && !own) return `unknown message type ${JSON.stringify(type)}`;
  return explainErrors(errors) + (type === undefined ? '' : ` (type ${JSON.stringify(type)})`);
}
