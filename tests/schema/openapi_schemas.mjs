// The OpenAPI document of protocol/schema (openapi.json), loaded for checks:
// its components/schemas compiled with ajv (draft 2020-12, strict mode) and
// a lookup from an HTTP answer (method, target, status, media type) to the
// validator of its body. Shared by lint_openapi.mjs and check_recorded.mjs.
//
//   const api = await loadOpenApi(path);
//   api.responseValidator('GET', '/api/games/abc', 200, 'application/json')
//     -> an ajv validate function (errors in fn.errors), or null when the
//        document does not describe that answer
//   api.checkAnswer({method, target, status, content_type, body})
//     -> null when it matches, else a one-line explanation
//
// How an answer is looked up (the rules of the document's info.description):
// - the target's path (query and fragment dropped) is split at '/' before
//   decoding, like the server does, and matched against the path templates;
//   literal segments win over {parameters}. A template parameter matches one
//   non-empty segment, except `/{path}` (the web client's files), which takes
//   any path outside /api/, /metrics and /ws, at any depth;
// - HEAD is answered as GET (without a body: no body is checked);
// - a request no operation describes (another method, an unknown path under
//   /api/) may get the shared answers of components/responses: 400
//   BadRequest, 404 NotFound (/api/, /metrics) or StaticNotFound, 405
//   MethodNotAllowed, 413 PayloadTooLarge, 500 Internal (/api/ only);
// - media types match exactly, or by their essence (type/subtype without
//   parameters); an answer without a Content-Type header matches a response
//   without content, or any response of its status (the WebSocket
//   handshake's own refusals at /ws carry none).
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ROOT_ID = 'urn:tilecrush:openapi';
const SCHEMA_PREFIX = '#/components/schemas/';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// A copy of `value` with every `$ref` to #/components/schemas/X pointing at
// `${base}#/$defs/X` instead.
function rewriteRefs(value, base) {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, base));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string' && member.startsWith(SCHEMA_PREFIX)) {
      out[key] = `${base}#/$defs/${member.slice(SCHEMA_PREFIX.length)}`;
    } else {
      out[key] = rewriteRefs(member, base);
    }
  }
  return out;
}

// The object a local reference ('#/components/responses/X') names.
function follow(doc, value) {
  let seen = 0;
  while (value && typeof value.$ref === 'string') {
    if (!value.$ref.startsWith('#/') || ++seen > 16) throw new Error(`cannot follow $ref ${value.$ref}`);
    value = value.$ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => (node === undefined ? undefined : node[key]), doc);
    if (value === undefined) throw new Error('dangling $ref');
  }
  return value;
}

const essence = (mediaType) => String(mediaType ?? '').split(';')[0].trim().toLowerCase();
const isJson = (mediaType) => {
  const e = essence(mediaType);
  return e === 'application/json' || e.endsWith('+json');
};

// Which side of the server a raw path goes to (server/src/net/http_session.cpp).
function sideOf(rawPath) {
  if (rawPath === '/metrics' || rawPath === '/api' || rawPath.startsWith('/api/')) return 'api';
  if (rawPath === '/ws') return 'ws';
  return 'static';
}
const sideOfTemplate = (template) =>
  template === '/metrics' || template.startsWith('/api/') ? 'api' : template === '/ws' ? 'ws' : 'static';

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

// The path template of the document that `target` ("/api/games/abc?x=1")
// falls under, or null.
export function matchPath(doc, target) {
  let raw = String(target);
  const hash = raw.indexOf('#');
  if (hash >= 0) raw = raw.slice(0, hash);
  const question = raw.indexOf('?');
  if (question >= 0) raw = raw.slice(0, question);
  if (!raw.startsWith('/')) return null;
  const side = sideOf(raw);
  const segments = raw.slice(1).split('/').map(decodeSegment);
  if (segments.includes(null)) return side === 'static' && doc.paths['/{path}'] ? '/{path}' : null;
  let best = null;
  let bestLiterals = -1;
  for (const template of Object.keys(doc.paths)) {
    if (sideOfTemplate(template) !== side) continue;
    const parts = template.slice(1).split('/');
    if (parts.length !== segments.length) continue;
    let literals = 0;
    let fits = true;
    for (let i = 0; i < parts.length && fits; ++i) {
      if (/^\{[^}]+\}$/.test(parts[i])) fits = segments[i] !== '';
      else if (parts[i] === segments[i]) ++literals;
      else fits = false;
    }
    if (fits && literals > bestLiterals) {
      best = template;
      bestLiterals = literals;
    }
  }
  if (!best && side === 'static' && doc.paths['/{path}'] && raw !== '/') best = '/{path}';
  return best;
}

// Reads and compiles the document at `path`. Throws when a schema does not
// compile (the error lists them all).
export async function loadOpenApi(path) {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const defs = rewriteRefs(doc.components?.schemas ?? {}, '');
  ajv.addSchema({ $id: ROOT_ID, $defs: defs });

  const problems = [];
  const validators = new Map(); // component name -> validate
  for (const name of Object.keys(defs)) {
    try {
      validators.set(name, ajv.getSchema(`${ROOT_ID}#/$defs/${name}`));
    } catch (e) {
      problems.push(`components/schemas/${name}: ${e.message}`);
    }
  }
  if (problems.length) throw new Error(`schemas that do not compile:\n${problems.join('\n')}`);

  // Media type schemas compiled on demand, one validator per schema object.
  const compiled = new WeakMap();
  const acceptAll = Object.assign(() => true, { errors: null });
  const validatorOf = (media) => {
    if (!media || media.schema === undefined) return acceptAll;
    if (!compiled.has(media)) {
      const schema = media.schema;
      const named = typeof schema.$ref === 'string' && schema.$ref.startsWith(SCHEMA_PREFIX) &&
        Object.keys(schema).length === 1 ? validators.get(schema.$ref.slice(SCHEMA_PREFIX.length)) : null;
      compiled.set(media, named ?? ajv.compile(rewriteRefs(schema, ROOT_ID)));
    }
    return compiled.get(media);
  };

  const shared = doc.components?.responses ?? {};
  // The shared answers to a request no operation describes.
  const fallback = (side, status) => {
    const name = {
      400: 'BadRequest',
      404: side === 'static' ? 'StaticNotFound' : 'NotFound',
      405: 'MethodNotAllowed',
      413: 'PayloadTooLarge',
      500: side === 'api' ? 'Internal' : null,
    }[status];
    return name && shared[name] ? { response: shared[name], where: `components/responses/${name}` } : null;
  };

  // What the document says of an answer: {validate, json, where} or {problem}.
  function describe(method, target, status, contentType) {
    const upper = String(method).toUpperCase();
    const template = matchPath(doc, target);
    const raw = String(target).split('#')[0].split('?')[0];
    const side = sideOf(raw);
    const item = template ? follow(doc, doc.paths[template]) : null;
    const opName = upper === 'HEAD' ? 'get' : upper.toLowerCase();
    const operation = item && METHODS.includes(opName) ? item[opName] : undefined;
    let found;
    if (operation) {
      const responses = operation.responses ?? {};
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
      if (!key) {
        return { problem: `status ${status} is not among ${upper === 'HEAD' ? 'GET' : upper} ${template}'s responses (${Object.keys(responses).join(', ')})` };
      }
      found = { response: follow(doc, responses[key]), where: `${opName.toUpperCase()} ${template} ${key}` };
    } else {
      found = fallback(side, Number(status));
      if (!found) {
        return {
          problem: template
            ? `${upper} ${template} is not described, and ${status} is not a shared answer`
            : `no path of the document matches ${raw}, and ${status} is not a shared answer`,
        };
      }
    }
    const content = found.response.content;
    const given = String(contentType ?? '').trim();
    if (!given) return { validate: acceptAll, json: false, where: found.where };
    if (!content || !Object.keys(content).length) {
      return { problem: `${found.where} has no body, but the answer has Content-Type ${given}` };
    }
    const media =
      content[given] ??
      Object.entries(content).find(([k]) => essence(k) === essence(given))?.[1] ??
      Object.entries(content).find(([k]) => {
        const [type, sub] = essence(k).split('/');
        return sub === '*' && (type === '*' || type === essence(given).split('/')[0]);
      })?.[1];
    if (!media) {
      return { problem: `${found.where} has no media type ${given} (${Object.keys(content).join(', ')})` };
    }
    return { validate: validatorOf(media), json: isJson(given) && upper !== 'HEAD', where: found.where };
  }

  function responseValidator(method, target, status, contentType) {
    const d = describe(method, target, status, contentType);
    return d.problem ? null : d.validate;
  }

  // An entry of tests/server/message_log.hpp: null when it matches.
  function checkAnswer(entry) {
    const d = describe(entry.method, entry.target, entry.status, entry.content_type);
    if (d.problem) return d.problem;
    if (!d.json) return null;
    if (typeof entry.body === 'string') return `${d.where}: the body is not JSON`;
    if (d.validate(entry.body)) return null;
    return `${d.where}: ${explainErrors(d.validate.errors)}`;
  }

  return { doc, ajv, validators, matchPath: (target) => matchPath(doc, target), describe, responseValidator, checkAnswer };
}

// ajv's errors in one short line.
export function explainErrors(errors) {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`)
    .join('; ');
}
