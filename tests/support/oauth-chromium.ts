// Headless Chromium for the OAuth browser test: Debian's `chromium` package, installed
// on first use (root, apt-get), driven by playwright-core.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';

const run = promisify(execFile);
export const CHROMIUM = '/usr/bin/chromium';

/** Installs Debian's chromium when missing; throws a clear message when that is impossible. */
export async function ensureChromium(): Promise<void> {
  if (fs.existsSync(CHROMIUM)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    // Under flock: the browser suites run in parallel Jest workers, and two apt-gets at once
    // fail on dpkg's lock. `dpkg --configure -a` first finishes an install a killed run left
    // half done ("dpkg was interrupted"), which otherwise refuses every later one.
    const install = `[ -x ${CHROMIUM} ] || { dpkg --configure -a && apt-get update && apt-get install -y --no-install-recommends chromium; }`;
    await run('flock', [path.join(os.tmpdir(), 'firewatch-chromium-install.lock'), 'sh', '-c', install], {
      env,
      timeout: 15 * 60_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM} and could not be installed with apt-get (needs root and network): ${(err as Error).message.slice(0, 500)}`,
      { cause: err },
    );
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get finished but ${CHROMIUM} is still missing`);
}

export interface LaunchedBrowser {
  /** A persistent context on a fresh profile directory (playwright wants it this way). */
  browser: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
