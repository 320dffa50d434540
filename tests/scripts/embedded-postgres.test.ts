// The embedded PostgreSQL of `pnpm start` on a machine with Node only (issue 25): stopping
// it after Ctrl-C in a terminal, which reaches the server too (it shares the process
// group), must not wait for an exit that has already happened.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '@firewatch/testing';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-embedded-pg-'));

let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // As root the server runs as the user postgres, which must reach its data.
  fs.chmodSync(stateDir, 0o755);
  process.env.FIREWATCH_STATE_DIR = stateDir;
  process.env.FIREWATCH_EMBEDDED_PG_PORT = String(await freePort());
  const { startEmbeddedPostgres } = await import(pathToFileURL(path.join(root, 'scripts/backing-services.mjs')).href);
  ({ stop } = await startEmbeddedPostgres({ log: () => undefined }));
}, 60_000);

afterAll(() => {
  delete process.env.FIREWATCH_STATE_DIR;
  delete process.env.FIREWATCH_EMBEDDED_PG_PORT;
  fs.rmSync(stateDir, { recursive: true, force: true });
});

it('stops at once when the server was already stopped by the terminal’s SIGINT', async () => {
  const postmaster = Number(fs.readFileSync(path.join(stateDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  process.kill(postmaster, 'SIGINT');
  const gone = () => {
    try {
      process.kill(postmaster, 0);
      return false;
    } catch {
      return true;
    }
  };
  for (const deadline = Date.now() + 20_000; !gone() && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 50));
  expect(gone()).toBe(true);
  const outcome = await Promise.race([
    stop!().then(() => 'stopped'),
    new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5000)),
  ]);
  expect(outcome).toBe('stopped');
}, 60_000);
