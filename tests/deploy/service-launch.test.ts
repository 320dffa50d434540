// Every way a service is started runs it with scripts/dev-env.mjs SERVICE_NODE_ARGS and
// SERVICE_ENV (issue 26: the V8 flags and malloc arenas that keep each process under
// 150 MB resident): the image's CMDs and runtime environment, which compose and the
// manifests use unchanged, the packages' start scripts and the end-to-end harness.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { render } from './support/kustomize.js';
import { podSpecs } from './support/pod-specs.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const PACKAGES = [
  'gateway',
  'services/auth',
  'services/incident-config',
  'services/communications',
  'services/on-call',
  'services/webhooks',
  'services/webhook-dispatcher',
];

describe('service launch flags and environment', () => {
  let args: string[];
  let env: Record<string, string>;
  beforeAll(async () => {
    const devEnv = await import(pathToFileURL(path.join(root, 'scripts/dev-env.mjs')).href);
    args = devEnv.SERVICE_NODE_ARGS;
    env = devEnv.SERVICE_ENV;
  });

  it('runs every image target with the flags, in an environment that sets the variables', () => {
    const dockerfile = read('Dockerfile');
    const cmds = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].map((m) => JSON.parse(m[1]) as string[]);
    const services = cmds.filter((cmd) => cmd.at(-1)!.endsWith('/main.js'));
    expect(services).toHaveLength(PACKAGES.length);
    for (const cmd of services) expect(cmd.slice(0, -1)).toEqual(['node', ...args]);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime\n'));
    for (const [name, value] of Object.entries(env)) expect(runtime).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'));
  });

  it('keeps the image’s command and environment in the Kubernetes manifests', () => {
    for (const { name, containers } of podSpecs(render(path.join(root, 'deploy/kubernetes/base')))) {
      for (const c of containers.filter((x) => !x.command)) {
        expect([name, c.env?.filter((e) => e.name in env) ?? []]).toEqual([name, []]);
        expect([name, 'args' in c]).toEqual([name, false]);
      }
    }
  });

  it('starts every package with the flags and the environment', () => {
    const prefix = Object.entries(env).map(([name, value]) => `${name}=\${${name}:-${value}}`);
    for (const dir of PACKAGES) {
      const start = (JSON.parse(read(`${dir}/package.json`)) as { scripts: { start: string } }).scripts.start;
      expect([dir, start.split(' ').slice(0, -1)]).toEqual([dir, [...prefix, 'node', ...args]]);
    }
  });

  it('runs the end-to-end systems with the flags and the environment', () => {
    const system = read('tests/support/system.ts');
    expect(system).toContain(`const SERVICE_NODE_ARGS = [${args.map((a) => `'${a}'`).join(', ')}];`);
    expect(system).toContain(
      `const SERVICE_ENV = { ${Object.entries(env)
        .map(([k, v]) => `${k}: '${v}'`)
        .join(', ')} };`,
    );
  });
});
