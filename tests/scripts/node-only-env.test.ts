// What the local scripts give each process on a machine with Node only (issue 25): no
// broker user and no Redis, the events database as each service's own role, and the
// test command's choice of suites when RabbitMQ or Redis is missing.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const load = (script: string) => import(pathToFileURL(path.join(root, 'scripts', script)).href);
const SERVICES = ['auth', 'incident-config', 'communications', 'on-call', 'webhooks', 'webhook-dispatcher'];

describe('processEnvs without RabbitMQ and Redis', () => {
  const chosen = { pg: 'postgres://postgres:pw@127.0.0.1:5439', pgKind: 'embedded', dataDir: '/x/postgres' };

  it('sends every service to the events database as its own role, and sets no broker or Redis', async () => {
    const { processEnvs } = await load('dev-env.mjs');
    const envs = processEnvs({ secret: 's'.repeat(43), dbSuffix: '_node_only_test', chosen });
    for (const service of SERVICES) {
      const own = new URL(envs[service].DATABASE_URL);
      const events = new URL(envs[service].EVENTS_DATABASE_URL);
      expect([events.username, events.password, events.port, events.pathname]).toEqual([
        own.username,
        own.password,
        '5439',
        '/firewatch_events_node_only_test',
      ]);
      // Empty reads as unset, and stops an AMQP_URL inherited from the shell from choosing the transport.
      expect(envs[service].AMQP_URL).toBe('');
    }
    expect(envs.gateway.REDIS_URL).toBe('');
    expect(envs.auth.REDIS_URL).toBe('');
    // Consumers know publishers by the database role the events database records.
    expect(envs['on-call'].AMQP_PUBLISHERS).toBe(
      'auth=firewatch_auth_node_only_test,incident-config=firewatch_incident_config_node_only_test,' +
        'communications=firewatch_communications_node_only_test,on-call=firewatch_on_call_node_only_test,webhooks=firewatch_webhooks_node_only_test',
    );
    expect(envs.events.queues.map((q: { queue: string; role: string }) => [q.queue, q.role])).toEqual([
      ['on-call.users_node_only_test', 'firewatch_on_call_node_only_test'],
      ['incident-config.groups_node_only_test', 'firewatch_incident_config_node_only_test'],
      ['webhook-dispatcher_node_only_test', 'firewatch_webhooks_node_only_test'],
    ]);
  });

  it('keeps RabbitMQ and Redis when they were chosen', async () => {
    const { processEnvs } = await load('dev-env.mjs');
    const envs = processEnvs({
      secret: 's'.repeat(43),
      chosen: { ...chosen, amqp: 'amqp://guest:guest@127.0.0.1:5672', redis: 'redis://127.0.0.1:6379' },
    });
    expect(new URL(envs['on-call'].AMQP_URL).username).toBe('firewatch-on-call');
    expect(envs['on-call'].EVENTS_DATABASE_URL).toBe('');
    expect(envs.gateway.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(envs.events).toBeNull();
  });

  it('says which backing services it uses and where the data lives, without passwords', async () => {
    const { describeBacking } = await load('backing-services.mjs');
    const text = describeBacking(chosen);
    expect(text).toContain('embedded PostgreSQL on 127.0.0.1:5439, data in /x/postgres');
    expect(text).toContain('Events:      over PostgreSQL');
    expect(text).toContain('Rate limits: in memory');
    expect(describeBacking({ ...chosen, pgKind: 'configured', amqp: 'amqp://admin:s3cret@mq:5672' })).not.toContain('s3cret');
  });
});

describe('the test command without RabbitMQ or Redis', () => {
  it('leaves out the suites that need them, and not the others', async () => {
    const { suitesNeeding } = await load('test-selection.mjs');
    const left = new Map<string, string[]>(
      suitesNeeding(root, ['RabbitMQ', 'Redis']).map((s: { file: string; needs: string[] }) => [s.file, s.needs]),
    );
    expect(left.get('libs/events/test/amqp-consumer.test.ts')).toEqual(['RabbitMQ']);
    expect(left.get('gateway/test/redis-rate-limit.store.test.ts')).toEqual(['Redis']);
    expect(left.get('tests/e2e/webhooks.e2e.test.ts')).toEqual(['RabbitMQ', 'Redis']);
    expect(left.has('tests/e2e/node-only.e2e.test.ts')).toBe(false);
    expect(left.has('libs/events/test/pg-events.transport.test.ts')).toBe(false);
  });

  it('refuses to leave anything out in CI, where a run without those suites would pass unseen', async () => {
    const { leaveOutRefusal } = await load('test-selection.mjs');
    expect(leaveOutRefusal(['RabbitMQ'], { CI: 'true' })).toMatch(/^RabbitMQ not found, and CI runs every suite/);
    expect(leaveOutRefusal([], { CI: 'true' })).toBeNull();
    expect(leaveOutRefusal(['RabbitMQ', 'Redis'], {})).toBeNull();
    expect(leaveOutRefusal(['Redis'], { CI: 'false' })).toBeNull();
  });

  it('counts a server as present when its URL is given', async () => {
    const { absentServers } = await load('test-selection.mjs');
    expect(await absentServers({ TEST_AMQP_URL: 'amqp://x', TEST_REDIS_URL: 'redis://x' })).toEqual([]);
  });
});
