// The scripts behind `pnpm start`: what they give each process, and what they print.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../support/system.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const devEnv = () => import(pathToFileURL(path.join(root, 'scripts/dev-env.mjs')).href);

describe('pnpm start', () => {
  it('gives each service its own broker user, and the consumers the publishers by those users', async () => {
    const { processEnvs } = await devEnv();
    const envs = processEnvs({ secret: 's'.repeat(43), dbSuffix: '_dev_scripts_test' }) as Record<string, Record<string, string>>;
    const services = ['auth', 'incident-config', 'communications', 'on-call', 'webhooks', 'webhook-dispatcher'];
    const urls = services.map((s) => new URL(envs[s].AMQP_URL));
    expect(urls.map((u) => u.username)).toEqual(services.map((s) => `firewatch-${s}_dev_scripts_test`));
    expect(new Set(urls.map((u) => u.password)).size).toBe(services.length);
    expect(envs.gateway.AMQP_URL).toBeUndefined();
    const publishers = services
      .filter((s) => s !== 'webhook-dispatcher')
      .map((s) => `${s}=firewatch-${s}_dev_scripts_test`)
      .join(',');
    expect(envs['on-call'].AMQP_PUBLISHERS).toBe(publishers);
    expect(envs['webhook-dispatcher'].AMQP_PUBLISHERS).toBe(publishers);
  });

  it('names a backing service that does not answer without its credentials', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { ...process.env, FIREWATCH_PG_URL: `postgres://postgres:pg-s3cret-pw@127.0.0.1:${port}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(output).toContain(`PostgreSQL does not answer at postgres://127.0.0.1:${port}`);
    expect(output).not.toContain('s3cret');
  }, 40_000);
});
