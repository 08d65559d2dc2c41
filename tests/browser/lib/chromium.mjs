// Launches Debian's chromium (never a downloaded browser) through
// playwright-core, headless, with the flags that keep it off the network.

import { chromium } from 'playwright-core';
import fs from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync',
];

export function chromiumAvailable() {
  return fs.existsSync(CHROMIUM_PATH);
}

export function launch() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
