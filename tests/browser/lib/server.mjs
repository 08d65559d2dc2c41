// Starts the tilecrush server for one test file: a fresh database in a
// temporary folder, port 0, and the port read from the line
// "tilecrush listening on http://127.0.0.1:<port>".

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '..', '..', '..');

export function serverPath() {
  const p = process.env.TILECRUSH_SERVER || path.join(REPO, 'build', 'release', 'server', 'tilecrush_server');
  return path.isAbsolute(p) ? p : path.resolve(REPO, p);
}

export function serverAvailable() {
  return fs.existsSync(serverPath());
}

// A .mjs server is the mock (tests/browser/mock/server.mjs), run by node.
function run(bin, args) {
  return bin.endsWith('.mjs')
    ? spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

// `<server> --db PATH --add-organiser NAME` creates an organiser and prints
// one line, "organiser NAME token TOKEN", then exits; resolves with the
// token. A server that does not know the option (it starts listening
// instead, or exits without that line) is stopped and rejects.
export function addOrganiser(dbPath, name, { timeoutMs = 15000 } = {}) {
  const child = run(serverPath(), ['--db', dbPath, '--add-organiser', name]);
  let output = '';
  return new Promise((resolve, reject) => {
    let token = null;
    const stop = (err) => {
      clearTimeout(timer);
      if (child.exitCode == null) child.kill('SIGKILL');
      reject(err);
    };
    const timer = setTimeout(() => stop(new Error(`--add-organiser did not finish in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (d) => {
      output += d.toString();
      const m = output.match(/^organiser (.+) token (\S+)\s*$/m);
      if (m && m[1] === name) token = m[2];
      if (/listening on/.test(output)) stop(new Error(`the server does not know --add-organiser:\n${output}`));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (token && code === 0) resolve(token);
      else reject(new Error(`--add-organiser exited with ${code} without a token line:\n${output}`));
    });
  });
}

// Starts the server on a fresh database. `organisers`: names to create
// with --add-organiser first (on the same database); their tokens end up in
// `server.organisers` ({name: token}), or the failure in
// `server.organiserError`.
export async function startServer({ timeoutMs = 20000, organisers = [] } = {}) {
  const bin = serverPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilecrush-browser-'));
  const db = path.join(dir, 't.db');
  const tokens = {};
  let organiserError = null;
  for (const name of organisers) {
    try {
      tokens[name] = await addOrganiser(db, name);
    } catch (err) {
      organiserError = err;
      break;
    }
  }
  const args = ['--port', '0', '--bind', '127.0.0.1', '--db', db, '--static', path.join(REPO, 'web-client')];
  const child = run(bin, args);
  let output = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (d) => {
      output += d.toString();
      const m = output.match(/tilecrush listening on (http:\/\/127\.0\.0\.1:(\d+))/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => { output += d.toString(); });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    base,
    db,
    organisers: tokens,
    organiserError,
    async stop() {
      if (child.exitCode == null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => {
          const t = setTimeout(() => { child.kill('SIGKILL'); resolve(); }, 5000);
          child.once('exit', () => { clearTimeout(t); resolve(); });
        });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
