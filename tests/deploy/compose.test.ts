// docker-compose.yml: long-running containers restart, RabbitMQ's queued events survive
// `down`/`up`, each service reaches the broker and its database as its own user (the same
// the provisioning jobs make), and only those jobs hold the administrators' passwords.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type ComposeService = {
  image?: string;
  build?: { target: string };
  restart?: string;
  hostname?: string;
  volumes?: string[];
  environment?: Record<string, string>;
};

const root = path.resolve(import.meta.dirname, '../..');
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const { services } = compose;
const ONE_SHOT = ['provision', 'provision-broker'];
/** `${VAR:?message}` as `${VAR}`: the same value, whatever the message. */
const plain = (value = '') => value.replace(/\$\{(\w+):\?[^}]*\}/g, '${$1}');
const entries = (list = '') =>
  Object.fromEntries(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  );

describe('docker-compose.yml', () => {
  it('restarts every long-running container and runs the provisioning jobs once', () => {
    const policies = Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.restart]));
    for (const [name, policy] of Object.entries(policies)) {
      expect([name, policy]).toEqual([name, ONE_SHOT.includes(name) ? 'no' : 'unless-stopped']);
    }
  });

  it('keeps RabbitMQ’s node name and data, and PostgreSQL’s, in named volumes', () => {
    expect(services.rabbitmq!.hostname).toBe('rabbitmq');
    for (const [service, dir] of [
      ['rabbitmq', '/var/lib/rabbitmq'],
      ['postgres', '/var/lib/postgresql/data'],
    ] as const) {
      const volume = services[service]!.volumes?.find((v) => v.endsWith(`:${dir}`))?.split(':')[0];
      expect([service, volume && volume in compose.volumes]).toEqual([service, true]);
    }
  });

  it('gives each service the broker user and database role that the provisioning jobs make', () => {
    const users = entries(plain(services['provision-broker']!.environment!.SERVICE_AMQP_URLS));
    const databases = new Set(plain(services.provision!.environment!.SERVICE_DATABASE_URLS).split(/\s+/).filter(Boolean));
    const bus = Object.entries(services).filter(([, s]) => s.environment?.AMQP_URL);
    expect(bus.map(([name]) => name).sort()).toEqual(Object.keys(users).sort());
    for (const [name, s] of bus) {
      expect([name, plain(s.environment!.AMQP_URL)]).toEqual([name, users[name]]);
      expect([name, users[name]]).toEqual([name, expect.stringMatching(new RegExp(`^amqp://firewatch-${name}:`))]);
      expect([name, databases.has(plain(s.environment!.DATABASE_URL))]).toEqual([name, true]);
    }
  });

  it('hands the administrators’ passwords to the backing services and the provisioning jobs only', () => {
    const holders = Object.entries(services)
      .filter(([, s]) => /POSTGRES_PASSWORD|RABBITMQ_PASSWORD/.test(JSON.stringify(s.environment ?? {})))
      .map(([name]) => name);
    expect(holders.sort()).toEqual(['postgres', 'provision', 'provision-broker', 'rabbitmq']);
  });

  it('builds every process from a target of the Dockerfile', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const targets = Object.values(services).flatMap((s) => s.build?.target ?? []);
    expect(targets.filter((t) => !dockerfile.includes(`AS ${t}\n`))).toEqual([]);
  });
});
