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

export async function startServer({ timeoutMs = 20000 } = {}) {
  const bin = serverPath();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilecrush-browser-'));
  const args = ['--port', '0', '--bind', '127.0.0.1', '--db', path.join(dir, 't.db'),
    '--static', path.join(REPO, 'web-client')];
  // A .mjs server is the mock (tests/browser/mock/server.mjs), run by node.
  const child = bin.endsWith('.mjs')
    ? spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
