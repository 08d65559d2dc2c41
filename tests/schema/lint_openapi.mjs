// Checks protocol/schema/openapi.json (or the file given as the argument):
// - a valid OpenAPI 3.1 document (@apidevtools/swagger-parser);
// - self-contained: every $ref is local, to something under #/components/
//   that exists;
// - every components/schemas entry, and every schema of a response or a
//   request body, compiles with ajv's Ajv2020 in strict mode (no unknown
//   keyword such as OpenAPI's `example`, no ambiguous types);
// - operationIds are unique, and every {parameter} of a path template is
//   declared as a path parameter.
// Prints one summary line and exits 0, or prints the errors and exits 1.
//
//   node tests/schema/lint_openapi.mjs [path/to/openapi.json]
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { loadOpenApi } from './openapi_schemas.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? join(here, '..', '..', 'protocol', 'schema', 'openapi.json');
const shown = relative(process.cwd(), file) || file;
const errors = [];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let doc;
try {
  doc = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`lint_openapi: ${shown}: ${e.message}`);
  process.exit(1);
}

// 1. OpenAPI 3.1 (validate() dereferences its argument: give it a copy).
try {
  await SwaggerParser.validate(structuredClone(doc));
} catch (e) {
  errors.push(`not a valid OpenAPI document: ${e.message}`);
}
if (doc.openapi !== '3.1.0') errors.push(`openapi is ${JSON.stringify(doc.openapi)}, not "3.1.0"`);

// 2. Local references only, each to something that exists.
const resolves = (pointer) =>
  pointer
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => (node !== null && typeof node === 'object' ? node[key] : undefined), doc) !== undefined;
(function walk(value, where) {
  if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${where}/${i}`));
  if (value === null || typeof value !== 'object') return;
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string') {
      if (!member.startsWith('#/components/')) errors.push(`${where}: $ref ${member} is not under #/components/`);
      else if (!resolves(member)) errors.push(`${where}: $ref ${member} names nothing`);
    } else {
      walk(member, `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
})(doc, '#');

// 3. The schemas compile with ajv in strict mode.
let api = null;
try {
  api = await loadOpenApi(file);
} catch (e) {
  errors.push(e.message);
}
let operations = 0;
const operationIds = new Map();
const follow = (v) => (v && typeof v.$ref === 'string' && resolves(v.$ref) ? v.$ref.slice(2).split('/').reduce((n, k) => n[k], doc) : v);
const compileContent = (content, where) => {
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    if (!api || media?.schema === undefined) continue;
    try {
      // responseValidator compiles a media type's schema the same way.
      api.ajv.compile(JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/schemas/', '"urn:tilecrush:openapi#/$defs/')));
    } catch (e) {
      errors.push(`${where} ${mediaType}: ${e.message}`);
    }
  }
};
for (const [name, response] of Object.entries(doc.components?.responses ?? {})) {
  compileContent(response.content, `components/responses/${name}`);
}
for (const [template, rawItem] of Object.entries(doc.paths ?? {})) {
  const item = follow(rawItem);
  const declared = new Set();
  for (const p of (item.parameters ?? []).map(follow)) if (p.in === 'path') declared.add(p.name);
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    operations += 1;
    const where = `${method.toUpperCase()} ${template}`;
    if (op.operationId) {
      if (operationIds.has(op.operationId)) errors.push(`${where}: operationId ${op.operationId} is also ${operationIds.get(op.operationId)}'s`);
      operationIds.set(op.operationId, where);
    } else {
      errors.push(`${where}: no operationId`);
    }
    const params = new Set(declared);
    for (const p of (op.parameters ?? []).map(follow)) if (p.in === 'path') params.add(p.name);
    for (const [, name] of template.matchAll(/\{([^}]+)\}/g)) {
      if (!params.has(name)) errors.push(`${where}: path parameter ${name} is not declared`);
    }
    compileContent(follow(op.requestBody)?.content, `${where} request body`);
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      compileContent(follow(response)?.content, `${where} ${status}`);
    }
  }
}

if (errors.length) {
  console.error(`lint_openapi: ${shown} has ${errors.length} problem${errors.length === 1 ? '' : 's'}:`);
  for (const e of errors) console.error(`- ${e}`);
  process.exit(1);
}
console.log(
  `lint_openapi: ${shown} is valid OpenAPI ${doc.openapi}: ${Object.keys(doc.paths).length} paths, ` +
    `${operations} operations, ${Object.keys(doc.components.schemas).length} schemas (ajv strict)`,
);
