// Which test suites the test command leaves out on a machine without RabbitMQ or Redis
// (a machine with Node and PostgreSQL, or the embedded one): a suite needs a server when
// it, or a support module it imports, names that server's test URL or client. CI has
// every server and runs every suite.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const NEEDS = {
  RabbitMQ:
    /TEST_AMQP|amqpUrl\(|amqplib|collectEvents|eventPattern|startSystem|createEventsConsumer|createGroupEventsConsumer|createDispatcher|provisionBroker/,
  Redis: /TEST_REDIS|ioredis|connectRedis|startSystem/,
};
const SERVERS = { RabbitMQ: { envVar: 'AMQP_URL', port: 5672 }, Redis: { envVar: 'REDIS_URL', port: 6379 } };

const answers = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(1000, () => resolve(false) || s.destroy());
    s.once('connect', () => resolve(true) || s.destroy());
    s.once('error', () => resolve(false));
  });

/** The servers the tests would not find: no URL given, nothing on the local port, no Docker for testcontainers. */
export async function absentServers(env = process.env) {
  const docker = Boolean(env.DOCKER_HOST) || fs.existsSync('/var/run/docker.sock');
  const absent = [];
  for (const [name, { envVar, port }] of Object.entries(SERVERS)) {
    if (env[`TEST_${envVar}`] || env[envVar] || docker || (await answers(port))) continue;
    absent.push(name);
  }
  return absent;
}

function testFiles(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) testFiles(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

// A suite's text with that of the relative modules it imports (one level: the support files).
function suiteText(file) {
  const text = fs.readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')));
  const support = imports.filter((f) => !f.split(path.sep).includes('src') && fs.existsSync(f));
  return [text, ...support.map((f) => fs.readFileSync(f, 'utf8'))].join('\n');
}

/**
 * Why the suites needing `absent` may not be left out, or null when they may: in CI
 * (`CI` set, as CI systems and `.ci/run` do) every server must be there, and a run that
 * left suites out would pass without having run them.
 */
export function leaveOutRefusal(absent, env = process.env) {
  if (!absent.length || !env.CI || env.CI === 'false') return null;
  return `${absent.join(' and ')} not found, and CI runs every suite (CI=${env.CI}): start them (.ci/run does), or set TEST_AMQP_URL / TEST_REDIS_URL`;
}

/** The suites under `root` that need one of `absent`, each with the servers it needs. */
export function suitesNeeding(root, absent) {
  const left = [];
  for (const file of ['libs', 'services', 'gateway', 'tests'].flatMap((d) => testFiles(path.join(root, d)))) {
    const text = suiteText(file);
    const needs = absent.filter((name) => NEEDS[name].test(text));
    if (needs.length) left.push({ file: path.relative(root, file), needs });
  }
  return left;
}
