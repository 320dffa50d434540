import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import type { TransportConsumer, EventEnvelope } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { createTestBrokerUsers, type TestBrokerUsers } from '@firewatch/service-testing';
import { PERSONAL_DECLARATIONS, registry } from '../src/domain/registry.js';
import { createEventsConsumer } from '../src/queue/events.consumer.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';

const AMQP = process.env.TEST_AMQP_URL!;
const TEAM = 1;
const logger = createLogger({ service: 'test', level: 'silent' });
let h: OnCallHarness;
let knex: Knex;
let consumer: TransportConsumer;
let broker: TestBrokerUsers;
let conn: ChannelModel;
let authConn: ChannelModel;
let asIncidentConfig: Channel;
let asAuth: Channel;
let admin: ChannelModel;
const exchange = `test.targets.${randomUUID()}`;
const queue = `test.on-call.events.${randomUUID()}`;

// As deployed: incident-config and auth publish, on-call consumes, each as its own broker user.
beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'alert_group.*' });
  knex = h.db.knex as Knex;
  broker = await createTestBrokerUsers(['auth', 'incident-config', 'on-call'], { exchange, queues: { 'on-call': queue } });
  conn = await amqp.connect(broker.users['incident-config']!.url);
  asIncidentConfig = await conn.createChannel();
  authConn = await amqp.connect(broker.users.auth!.url);
  asAuth = await authConn.createChannel();
  admin = await amqp.connect(AMQP);
  consumer = createEventsConsumer({
    knex,
    amqpUrl: broker.users['on-call']!.url,
    logger,
    queue,
    exchange,
    publishers: broker.publishers,
    memberships: registry.get('schedule_rotation_users'),
    personal: PERSONAL_DECLARATIONS.map(registry.get),
  });
  await consumer.start();
});
afterAll(async () => {
  await consumer?.stop();
  await authConn?.close().catch(() => undefined);
  await conn?.close().catch(() => undefined);
  const cleanup = await admin?.createChannel();
  for (const q of [queue, `${queue}.dead`]) await cleanup?.deleteQueue(q).catch(() => undefined);
  await cleanup?.deleteExchange(exchange).catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await broker?.remove();
  await h?.close();
});

let clock = Date.parse('2026-11-25T10:00:00Z');
const RESOURCE = { service: 'services', functionality: 'functionalities', group: 'groups' } as const;

/** An event as its owner's outbox writes it: the JSON:API resource object as its API answers it. */
function recordEvent(
  family: keyof typeof RESOURCE,
  action: 'created' | 'updated' | 'deleted',
  id: string,
  { name = `${family} ${id.slice(0, 8)}`, team = TEAM, updatedAt }: { name?: string; team?: number; updatedAt?: number } = {},
): EventEnvelope {
  clock += 1000;
  const at = new Date(updatedAt ?? clock).toISOString();
  return {
    id: randomUUID(),
    type: `${family}.${action}`,
    occurred_at: new Date(clock).toISOString(),
    team_id: team,
    data: { id, type: RESOURCE[family], attributes: { name, slug: name.toLowerCase(), created_at: at, updated_at: at } },
  };
}

function publish(
  event: EventEnvelope,
  channel = asIncidentConfig,
  userId = broker.users['incident-config']!.user,
  routingKey = event.type,
) {
  channel.publish(exchange, routingKey, Buffer.from(JSON.stringify(event)), { persistent: true, messageId: event.id, userId });
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const target = (id: string, team = TEAM) => knex('targets').where({ team_id: team, target_id: id }).first();

/** Publishes a marker service after what was published before and waits for it: the queue is in order, so the earlier ones are handled. */
async function settled(): Promise<void> {
  const marker = randomUUID();
  publish(recordEvent('service', 'created', marker));
  await until(() => target(marker), Boolean);
}

const createGroup = (name: string, targets: unknown[]) => h.create('alert_groups', { name, targets });
const groupCount = async () => (await h.call('GET', '/v1/alert_groups')).body.data.length as number;

describe('alert group targets named by id alone', () => {
  it('takes the type of a service, functionality or team the events made known, in create and update', async () => {
    const [service, functionality, team] = [randomUUID(), randomUUID(), randomUUID()];
    publish(recordEvent('service', 'created', service, { name: 'Payments' }));
    publish(recordEvent('functionality', 'created', functionality));
    await until(() => target(functionality), Boolean);
    // Teams are auth's: its group.* events, from its broker user.
    publish(recordEvent('group', 'created', team), asAuth, broker.users.auth!.user);
    await until(() => target(team), Boolean);
    expect(await target(service)).toMatchObject({ target_type: 'Service', name: 'Payments', deleted_at: null });

    const created = await createGroup('By id', [{ target_id: service.toUpperCase() }, { target_id: team }]);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.targets).toEqual([
      { target_type: 'Service', target_id: service },
      { target_type: 'Group', target_id: team },
    ]);
    const { id } = created.body.data;
    const announced = () =>
      h.events!.events.find((e) => e.routingKey === 'alert_group.created' && (e.body.data as { id: string }).id === id);
    await h.events!.waitFor(() => announced() !== undefined);
    expect((announced()!.body.data as { attributes: { targets: unknown } }).attributes.targets).toEqual(
      created.body.data.attributes.targets,
    );

    // An explicit type is kept even for an id no event told of: the record's event may still be on its way.
    const policy = randomUUID();
    const patched = await h.call('PATCH', `/v1/alert_groups/${id}`, {
      body: {
        data: {
          id,
          type: 'alert_groups',
          attributes: { targets: [{ target_id: functionality }, { target_type: 'EscalationPolicy', target_id: policy }] },
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes.targets).toEqual([
      { target_type: 'Functionality', target_id: functionality },
      { target_type: 'EscalationPolicy', target_id: policy },
    ]);
    expect((await h.call('GET', `/v1/alert_groups/${id}`)).body.data.attributes.targets).toEqual(patched.body.data.attributes.targets);
  });

  it('answers an id no event told of with a 422 at its target_type, and stores nothing', async () => {
    const before = await groupCount();
    const unknown = randomUUID();
    const answer = await createGroup('Unknown target', [{ target_type: 'Service', target_id: randomUUID() }, { target_id: unknown }]);
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        code: 'invalid_reference',
        source: { pointer: '/data/attributes/targets/1/target_type' },
        detail: expect.stringMatching(new RegExp(`No service, functionality or team with the id "${unknown}" is known .*give target_type`)),
      }),
    ]);
    expect(await groupCount()).toBe(before);

    const kept = await createGroup('Kept targets', []);
    const id = kept.body.data.id;
    const patched = await h.call('PATCH', `/v1/alert_groups/${id}`, {
      body: { data: { id, type: 'alert_groups', attributes: { name: 'Renamed', targets: [{ target_id: unknown }] } } },
    });
    expect(patched.status).toBe(422);
    expect((await h.call('GET', `/v1/alert_groups/${id}`)).body.data.attributes).toMatchObject({ name: 'Kept targets', targets: [] });
  });

  it("does not know another team's service", async () => {
    const theirs = randomUUID();
    publish(recordEvent('service', 'created', theirs, { team: TEAM + 1 }));
    await until(() => target(theirs, TEAM + 1), Boolean);
    const answer = await createGroup('Theirs', [{ target_id: theirs }]);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].source.pointer).toBe('/data/attributes/targets/0/target_type');
  });

  it('refuses a target listed twice, once by id alone and once with its type', async () => {
    const service = randomUUID();
    publish(recordEvent('service', 'created', service));
    await until(() => target(service), Boolean);
    const answer = await createGroup('Twice', [{ target_id: service }, { target_type: 'Service', target_id: service }]);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/targets' },
      detail: expect.stringContaining('more than once'),
    });
  });

  it('forgets a deleted record for good: redelivered and late events do not bring it back', async () => {
    const service = randomUUID();
    const created = recordEvent('service', 'created', service, { name: 'Old' });
    publish(created);
    await until(() => target(service), Boolean);
    expect((await createGroup('Before delete', [{ target_id: service }])).status).toBe(201);

    publish(recordEvent('service', 'deleted', service, { name: 'Old' }));
    await until(
      () => target(service),
      (r) => r?.deleted_at != null,
    );
    expect((await createGroup('After delete', [{ target_id: service }])).status).toBe(422);

    // The creation redelivered, and an update that was overtaken by the deletion.
    publish(created);
    publish(recordEvent('service', 'updated', service, { name: 'Late' }));
    await settled();
    expect(await target(service)).toMatchObject({ name: 'Old', deleted_at: expect.any(Date) });
    expect((await createGroup('Still deleted', [{ target_id: service }])).status).toBe(422);
  });

  it('keeps the newest state when updates arrive out of order or twice', async () => {
    const service = randomUUID();
    const newer = recordEvent('service', 'updated', service, { name: 'Newer' });
    const older = recordEvent('service', 'created', service, { name: 'Older', updatedAt: clock - 60_000 });
    publish(newer);
    publish(newer);
    publish(older);
    await settled();
    expect(await target(service)).toMatchObject({ name: 'Newer', target_type: 'Service', deleted_at: null });
  });

  it('takes services only from incident-config, and drops a malformed event', async () => {
    const forged = randomUUID();
    const wrongType = randomUUID();
    // auth's user may route only its own families, and may not claim incident-config's in the body.
    publish(recordEvent('service', 'created', forged), asAuth, broker.users.auth!.user, 'user.created');
    const bad = recordEvent('functionality', 'created', wrongType);
    (bad.data as { type: string }).type = 'services';
    publish(bad);
    await settled();
    expect(await target(forged)).toBeUndefined();
    expect(await target(wrongType)).toBeUndefined();
  });
});

describe('owner groups known from auth (issue 22)', () => {
  const source = (owners: string[]) => h.create('alert_sources', { name: `Source ${randomUUID().slice(0, 6)}`, owner_group_ids: owners });

  it('takes a team auth announced as an owner group, and refuses it once auth deleted it, as it refuses a service', async () => {
    const [team, service] = [randomUUID(), randomUUID()];
    expect((await source([team])).status).toBe(422);
    publish(recordEvent('group', 'created', team), asAuth, broker.users.auth!.user);
    publish(recordEvent('service', 'created', service));
    await until(() => target(service), Boolean);
    await until(() => target(team), Boolean);
    const made = await source([team.toUpperCase()]);
    expect(made.status).toBe(201);
    expect(made.body.data.attributes.owner_group_ids).toEqual([team]);
    // A service's id is no team, though the same read model knows it.
    expect((await source([service])).status).toBe(422);

    publish(recordEvent('group', 'deleted', team), asAuth, broker.users.auth!.user);
    await until(
      () => target(team),
      (t) => Boolean(t?.deleted_at),
    );
    expect((await source([team])).status).toBe(422);
    // The source that names it keeps it, and may be updated with it.
    const kept = await h.call('PUT', `/v1/alert_sources/${made.body.data.id}`, {
      body: { data: { type: 'alert_sources', attributes: { enabled: false, owner_group_ids: [team] } } },
    });
    expect(kept.status).toBe(200);
  });
});
