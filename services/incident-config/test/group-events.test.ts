import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import type { TransportConsumer } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { createTestBrokerUsers, type TestBrokerUsers } from '@firewatch/service-testing';
import { createGroupEventsConsumer } from '../src/queue/group-events.consumer.js';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

// Issue 22: owner_group_ids and retrospective group_ids name teams that auth's group.* events made known.
const TEAM = 1;
let h: IncidentConfigHarness;
let knex: Knex;
let broker: TestBrokerUsers;
let consumer: TransportConsumer;
let conn: ChannelModel;
let ch: Channel;
let admin: ChannelModel;
const exchange = `test.groups.${randomUUID()}`;
const queue = `test.incident-config.groups.${randomUUID()}`;

// As deployed: auth publishes and incident-config consumes as their own broker users.
beforeAll(async () => {
  h = await startIncidentConfig();
  knex = h.db.knex as Knex;
  broker = await createTestBrokerUsers(['auth', 'incident-config', 'on-call'], { exchange, queues: { 'incident-config': queue } });
  conn = await amqp.connect(broker.users.auth!.url);
  ch = await conn.createChannel();
  admin = await amqp.connect(process.env.TEST_AMQP_URL!);
  consumer = createGroupEventsConsumer({
    knex,
    amqpUrl: broker.users['incident-config']!.url,
    logger: createLogger({ service: 'test', level: 'silent' }),
    queue,
    exchange,
    publishers: broker.publishers,
  });
  await consumer.start();
});
afterAll(async () => {
  await consumer?.stop();
  await conn?.close().catch(() => undefined);
  const cleanup = await admin?.createChannel();
  for (const q of [queue, `${queue}.dead`]) await cleanup?.deleteQueue(q).catch(() => undefined);
  await cleanup?.deleteExchange(exchange).catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await broker?.remove();
  await h?.close();
});

let clock = Date.parse('2026-11-25T10:00:00Z');

/** An event as auth writes it: the team (group) as its API answers it. */
function groupEvent(action: 'created' | 'updated' | 'deleted', id: string, attributes: Record<string, unknown> = {}, team = TEAM) {
  clock += 1000;
  const at = new Date(clock).toISOString();
  return {
    id: randomUUID(),
    type: `group.${action}`,
    occurred_at: at,
    team_id: team,
    data: {
      id,
      type: 'groups',
      attributes: {
        name: `Team ${id.slice(0, 4)}`,
        slug: null,
        user_ids: [],
        admin_ids: [],
        created_at: at,
        updated_at: at,
        ...attributes,
      },
    },
  };
}

/** Publishes as auth does: as its broker user, which `user-id` names. */
function publish(event: { type: string; id: string }, channel = ch, userId: string | null = broker.users.auth!.user) {
  channel.publish(exchange, event.type, Buffer.from(JSON.stringify(event)), {
    persistent: true,
    messageId: event.id,
    userId: userId ?? undefined,
  });
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

const row = (id: string, team = TEAM) => knex('groups').where({ team_id: team, id }).first();

/** Publishes a fresh team's creation and waits until it is known: everything published before it was handled (one queue, in order). */
async function newTeam(team = TEAM): Promise<string> {
  const id = randomUUID();
  publish(groupEvent('created', id, {}, team));
  await until(() => row(id, team), Boolean);
  return id;
}

type Attrs = Record<string, unknown>;
const body = (type: string, attributes: Attrs) => ({ data: { type, attributes } });
const create = (type: string, attributes: Attrs, principal?: Attrs) =>
  h.call('POST', `/v1/${type}`, { body: body(type, attributes), principal });
const put = (type: string, id: string, attributes: Attrs, principal?: Attrs) =>
  h.call('PUT', `/v1/${type}/${id}`, { body: body(type, attributes), principal });
const refusal = (res: { status: number; body: { errors?: { code: string; source?: { pointer?: string } }[] } }) => [
  res.status,
  res.body.errors?.map((e) => [e.code, e.source?.pointer]),
];
const groupKey = (ids: string[], team = TEAM) => ({
  team_id: team,
  role: 'user',
  group_ids: ids,
  credential: { type: 'api_key', id: 'group-key', kind: 'group' },
});

describe('the groups read model, fed by group.* events', () => {
  it('keeps the newest state of each team; a duplicate or an older event changes nothing', async () => {
    const id = randomUUID();
    const created = groupEvent('created', id, { name: 'Payments' });
    publish(created);
    const renamed = groupEvent('updated', id, { name: 'Payments SRE', slug: 'payments-sre' });
    const older = groupEvent('updated', id, { name: 'Stale', updated_at: created.data.attributes.updated_at });
    publish(renamed);
    publish(older);
    publish(created);
    await newTeam();
    expect(await row(id)).toMatchObject({ name: 'Payments SRE', slug: 'payments-sre', deleted_at: null });
  });

  it('a deletion that overtakes the creation leaves a tombstone that late events do not revive', async () => {
    const id = randomUUID();
    const created = groupEvent('created', id);
    const updated = groupEvent('updated', id, { name: 'Later' });
    publish(groupEvent('deleted', id));
    publish(created);
    publish(updated);
    await newTeam();
    expect(await row(id)).toMatchObject({ deleted_at: expect.any(Date) });
    expect(refusal(await create('services', { name: 'Owned by the deleted', owner_group_ids: [id] }))).toEqual([
      422,
      [['invalid_reference', '/data/attributes/owner_group_ids/0']],
    ]);
  });

  it('drops a malformed event and goes on with the next', async () => {
    const bad = groupEvent('created', 'not-a-uuid');
    publish(bad);
    const id = await newTeam();
    expect(await row(id)).toBeDefined();
    expect(await knex('groups').where({ name: bad.data.attributes.name }).first()).toBeUndefined();
  });

  it("takes group events from auth's broker user only", async () => {
    const forged = randomUUID();
    // A broker whose topic permissions were forgotten lets on-call's user route group.* events:
    // then the consumer's rule is all that stands between them and the read model.
    const other = broker.users['on-call']!;
    await dropTopicPermissions(other.user);
    const otherConn = await amqp.connect(other.url);
    try {
      const otherCh = await otherConn.createConfirmChannel();
      publish(groupEvent('created', forged), otherCh, other.user);
      await otherCh.waitForConfirms();
    } finally {
      await otherConn.close().catch(() => undefined);
    }
    // Without user-id (the broker lets a publisher leave it out), auth's own connection is not believed either.
    const anonymous = randomUUID();
    publish(groupEvent('created', anonymous), ch, null);
    await newTeam();
    expect(await row(forged)).toBeUndefined();
    expect(await row(anonymous)).toBeUndefined();
    expect((await create('services', { name: 'Forged owner', owner_group_ids: [forged] })).status).toBe(422);
  });
});

describe('owner_group_ids name teams of the tenant', () => {
  it.each(['services', 'functionalities', 'secrets'])(
    '%s: an unknown team is a 422 naming the entry; a known one is taken',
    async (type) => {
      const known = await newTeam();
      const unknown = randomUUID();
      const extra = type === 'secrets' ? { secret: 'v' } : {};
      const refused = await create(type, { name: `${type} a`, ...extra, owner_group_ids: [known, unknown, 'ops'] });
      expect(refusal(refused)).toEqual([
        422,
        [
          ['invalid_reference', '/data/attributes/owner_group_ids/1'],
          ['invalid_reference', '/data/attributes/owner_group_ids/2'],
        ],
      ]);
      expect(
        await knex(type)
          .where({ team_id: TEAM, name: `${type} a` })
          .first(),
      ).toBeUndefined();

      // Upper case is the same team: stored as PostgreSQL spells it, so group keys holding it match.
      const made = await create(type, { name: `${type} a`, ...extra, owner_group_ids: [known.toUpperCase()] });
      expect(made.status).toBe(201);
      expect(made.body.data.attributes.owner_group_ids).toEqual([known]);
      const id = made.body.data.id as string;

      const name = type === 'secrets' ? { name: `${type} a` } : {};
      expect(refusal(await put(type, id, { ...name, owner_group_ids: [known, unknown] }))).toEqual([
        422,
        [['invalid_reference', '/data/attributes/owner_group_ids/1']],
      ]);
      const other = await newTeam();
      const moved = await put(type, id, { ...name, owner_group_ids: [other, known] });
      expect(moved.status).toBe(200);
      expect(moved.body.data.attributes.owner_group_ids).toEqual([other, known]);
    },
  );

  it("refuses another tenant's team as unknown, telling nothing of it", async () => {
    const theirs = await newTeam(TEAM + 1);
    const res = await create('services', { name: 'Cross-tenant', owner_group_ids: [theirs] });
    expect(refusal(res)).toEqual([422, [['invalid_reference', '/data/attributes/owner_group_ids/0']]]);
    const missing = await create('services', { name: 'Cross-tenant', owner_group_ids: [randomUUID()] });
    expect(res.body.errors[0].detail.replace(theirs, '?')).toBe(missing.body.errors[0].detail.replace(/"[^"]+"/, '"?"'));
    expect((await create('services', { name: 'Theirs', owner_group_ids: [theirs] }, { team_id: TEAM + 1 })).status).toBe(201);
  });

  it("bulk upsert: a group key's new records are its teams', which must be known", async () => {
    const known = await newTeam();
    const unknown = randomUUID();
    const upsert = (principal: Attrs) =>
      h.call('POST', '/v1/services/bulk_upsert', {
        principal,
        body: { entities: [{ external_id: `bulk-${randomUUID()}`, name: `Bulk ${randomUUID()}` }] },
      });
    const refused = await upsert(groupKey([unknown]));
    expect(refusal(refused)).toEqual([422, [['invalid_entity', '/entities/0']]]);
    expect(refused.body.errors[0].detail).toContain(`owner_group_ids: no team "${unknown}"`);
    const taken = await upsert(groupKey([known]));
    expect(taken.status).toBe(200);
    expect(taken.body.data[0].attributes.owner_group_ids).toEqual([known]);
  });

  it('a deleted team stays on the records it owned, which keep their readers and no more; it cannot be added again', async () => {
    const [gone, stays] = [await newTeam(), await newTeam()];
    const owned = (await create('services', { name: 'Owned by gone', owner_group_ids: [gone] })).body.data.id as string;
    const shared = (await create('services', { name: 'Shared', owner_group_ids: [gone, stays] })).body.data.id as string;
    publish(groupEvent('deleted', gone));
    await until(
      () => row(gone),
      (r) => r?.deleted_at != null,
    );
    // Nothing changed on the records: a key of the deleted team (if auth still signed one) sees what it saw.
    const read = await h.call('GET', `/v1/services/${owned}`);
    expect(read.body.data.attributes.owner_group_ids).toEqual([gone]);
    expect((await h.call('GET', `/v1/services/${owned}`, { principal: groupKey([stays]) })).status).toBe(404);
    expect((await h.call('GET', `/v1/services/${shared}`, { principal: groupKey([stays]) })).status).toBe(200);
    // Updates that keep it pass (it is held); naming it anew does not.
    expect((await put('services', shared, { description: 'still here', owner_group_ids: [gone, stays] })).status).toBe(200);
    expect((await put('services', owned, { owner_group_ids: [] })).status).toBe(200);
    expect(refusal(await put('services', owned, { owner_group_ids: [gone] }))).toEqual([
      422,
      [['invalid_reference', '/data/attributes/owner_group_ids/0']],
    ]);
  });
});

describe("retrospective processes' group_ids criteria name teams of the tenant", () => {
  const process = (name: string, group_ids: string[]) => ({
    name,
    copy_from: 'starter_template',
    retrospective_process_matching_criteria: { group_ids },
  });

  it('refuses an unknown or foreign team on create and update, and takes a known one', async () => {
    const [known, theirs] = [await newTeam(), await newTeam(TEAM + 1)];
    const pointer = (i: number) => `/data/attributes/retrospective_process_matching_criteria/group_ids/${i}`;
    expect(refusal(await create('retrospective_processes', process('By team', [known, theirs])))).toEqual([
      422,
      [['invalid_reference', pointer(1)]],
    ]);
    const made = await create('retrospective_processes', process('By team', [known]));
    expect(made.status).toBe(201);
    expect(made.body.data.attributes.retrospective_process_matching_criteria).toEqual({ group_ids: [known] });
    const id = made.body.data.id as string;
    const criteria = (group_ids: string[]) => ({ retrospective_process_matching_criteria: { group_ids } });
    expect(refusal(await put('retrospective_processes', id, criteria([known, randomUUID()])))).toEqual([
      422,
      [['invalid_reference', pointer(1)]],
    ]);
    const other = await newTeam();
    expect((await put('retrospective_processes', id, criteria([other, known]))).status).toBe(200);
  });
});

/** Removes a broker user's topic permissions, as on a broker where provisioning never set them. */
async function dropTopicPermissions(user: string): Promise<void> {
  const url = new URL(process.env.TEST_AMQP_MANAGEMENT_URL!);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const res = await fetch(`${url.origin}/api/topic-permissions/%2F/${encodeURIComponent(user)}`, {
    method: 'DELETE',
    headers: { authorization },
  });
  expect(res.status).toBe(204);
}
