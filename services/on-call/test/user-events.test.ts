import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import type { TransportConsumer } from '@firewatch/events';
import { createLogger } from '@firewatch/logger';
import { createTestBrokerUsers, type TestBrokerUsers } from '@firewatch/service-testing';
import { createUsersRepository } from '../src/data/users.repository.js';
import { PERSONAL_DECLARATIONS, registry } from '../src/domain/registry.js';
import { createEventsConsumer } from '../src/queue/events.consumer.js';
import { startOnCall, type OnCallHarness } from './support/on-call-harness.js';
import { seedUsers } from './support/users.fixture.js';

const AMQP = process.env.TEST_AMQP_URL!;
const TEAM = 1;
let h: OnCallHarness;
let consumer: TransportConsumer;
let conn: ChannelModel;
let ch: Channel;
let admin: ChannelModel;
const exchange = `test.users.${randomUUID()}`;
const queue = `test.on-call.users.${randomUUID()}`;
let knex: Knex;
let broker: TestBrokerUsers;

// As deployed: auth publishes and on-call consumes as their own broker users.
beforeAll(async () => {
  h = await startOnCall({ eventPattern: 'schedule_rotation_user.*' });
  knex = h.db.knex as Knex;
  broker = await createTestBrokerUsers(['auth', 'incident-config', 'on-call'], { exchange, queues: { 'on-call': queue } });
  conn = await amqp.connect(broker.users.auth!.url);
  ch = await conn.createChannel();
  admin = await amqp.connect(AMQP);
  consumer = createEventsConsumer({
    knex,
    amqpUrl: broker.users['on-call']!.url,
    logger: createLogger({ service: 'test', level: 'silent' }),
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
  await conn?.close().catch(() => undefined);
  const cleanup = await admin?.createChannel();
  for (const q of [queue, `${queue}.dead`]) await cleanup?.deleteQueue(q).catch(() => undefined);
  await cleanup?.deleteExchange(exchange).catch(() => undefined);
  await admin?.close().catch(() => undefined);
  await broker?.remove();
  await h?.close();
});

let clock = Date.parse('2026-11-23T10:00:00Z');

/** An event as auth writes it (services/auth/src/domain/user-events.ts). */
function userEvent(
  action: 'created' | 'updated' | 'deleted',
  id: number,
  version: number,
  attributes: Record<string, unknown> = {},
  team = TEAM,
) {
  clock += 1000;
  return {
    id: randomUUID(),
    type: `user.${action}`,
    occurred_at: new Date(clock).toISOString(),
    team_id: team,
    data: {
      id: String(id),
      type: 'users',
      attributes: {
        email: `u${id}@one.test`,
        name: `User ${id}`,
        role: 'user',
        on_call_role: 'user',
        team_id: team,
        is_service_account: false,
        ...attributes,
      },
      meta: { version },
    },
  };
}

/** Publishes as auth does: as its broker user, which `user-id` names. */
function publish(event: { type: string } & Record<string, unknown>, channel = ch, userId: string | null = broker.users.auth!.user) {
  channel.publish(exchange, event.type, Buffer.from(JSON.stringify(event)), {
    persistent: true,
    messageId: String(event.id),
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

const row = (id: number) => knex('users').where({ user_id: id }).first();

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

describe('users read model fed by user.* events', () => {
  it('applies created and updated; a duplicate or an older event changes nothing', async () => {
    const created = userEvent('created', 101, 1, { name: 'Ana' });
    publish(created);
    await until(
      () => row(101),
      (r) => r?.name === 'Ana',
    );
    publish(userEvent('updated', 101, 3, { name: 'Ana Lima', email: 'ana@one.test' }));
    publish(userEvent('updated', 101, 2, { name: 'Stale name' }));
    publish(created);
    // A marker published after them: once it is in, the earlier ones were handled (one queue, in order).
    publish(userEvent('created', 102, 1));
    await until(() => row(102), Boolean);
    await until(
      () => row(101),
      (r) => r?.version === 3,
    );
    expect(await row(101)).toMatchObject({ team_id: TEAM, name: 'Ana Lima', email: 'ana@one.test', version: 3, deleted_at: null });
    const users = createUsersRepository();
    const live = await knex.transaction((tx) => users.existing(tx, TEAM, [101, 102, 999]));
    expect([...live].sort()).toEqual([101, 102]);
    expect(await knex.transaction((tx) => users.existing(tx, TEAM + 1, [101]))).toEqual(new Set());
  });

  it('a deletion that overtakes the creation leaves a tombstone that the late creation does not revive', async () => {
    publish(userEvent('deleted', 103, 2, { name: 'Gone' }));
    await until(
      () => row(103),
      (r) => r?.deleted_at != null,
    );
    publish(userEvent('created', 103, 1, { name: 'Gone' }));
    publish(userEvent('created', 104, 1));
    await until(() => row(104), Boolean);
    expect(await row(103)).toMatchObject({ version: 2, deleted_at: expect.any(Date) });
    const users = createUsersRepository();
    expect(await knex.transaction((tx) => users.existing(tx, TEAM, [103]))).toEqual(new Set());
    const summaries = await knex.transaction((tx) => users.summaries(tx, TEAM, [103, 104, 999]));
    expect(summaries.get(103)).toEqual({ id: 103, name: 'Gone', email: 'u103@one.test', deleted: true });
    expect(summaries.get(104)).toMatchObject({ deleted: false });
    expect(summaries.has(999)).toBe(false);
  });

  it('drops a malformed event and goes on with the next', async () => {
    const bad = userEvent('created', 105, 1);
    delete (bad.data as { meta?: unknown }).meta;
    publish(bad);
    publish(userEvent('created', 106, 1));
    await until(() => row(106), Boolean);
    expect(await row(105)).toBeUndefined();
  });

  it('a deleted user leaves every rotation it was in, each removal with its event, once', async () => {
    await seedUsers(knex, [
      { team_id: TEAM, user_id: 1 },
      { team_id: TEAM, user_id: 110, name: 'Bo' },
      { team_id: TEAM, user_id: 111 },
    ]);
    const schedule = await h.create('schedules', { name: 'Primary', owner_user_id: 1 });
    expect(schedule.status).toBe(201);
    const rotation = (n: string) =>
      h.call('POST', `/v1/schedules/${schedule.body.data.id}/schedule_rotations`, {
        body: {
          data: {
            type: 'schedule_rotations',
            attributes: {
              name: n,
              schedule_rotationable_type: 'ScheduleDailyRotation',
              schedule_rotationable_attributes: { handoff_time: '09:00' },
            },
          },
        },
      });
    const rotations = [await rotation('Day'), await rotation('Backup')];
    expect(rotations.map((r) => r.status)).toEqual([201, 201]);
    const member = (rotationId: string, userId: number) =>
      h.call('POST', `/v1/schedule_rotations/${rotationId}/schedule_rotation_users`, {
        body: { data: { type: 'schedule_rotation_users', attributes: { user_id: userId } } },
      });
    const bo = [await member(rotations[0].body.data.id, 110), await member(rotations[1].body.data.id, 110)];
    const other = await member(rotations[0].body.data.id, 111);
    expect([...bo, other].map((r) => r.status)).toEqual([201, 201, 201]);

    const deletion = userEvent('deleted', 110, 2, { name: 'Bo' });
    publish(deletion);
    await h.events!.waitFor((events) => events.filter((e) => e.routingKey === 'schedule_rotation_user.deleted').length === 2);
    const removed = h.events!.events.filter((e) => e.routingKey === 'schedule_rotation_user.deleted');
    expect(removed.map((e) => (e.body.data as { id: string }).id).sort()).toEqual(bo.map((r) => r.body.data.id).sort());
    expect(removed[0].body).toMatchObject({ team_id: TEAM, data: { type: 'schedule_rotation_users', attributes: { user_id: 110 } } });
    for (const r of bo) expect((await h.call('GET', `/v1/schedule_rotation_users/${r.body.data.id}`)).status).toBe(404);
    expect((await h.call('GET', `/v1/schedule_rotation_users/${other.body.data.id}`)).status).toBe(200);

    // Redelivered: nothing more is removed or announced; and the user can no longer join a rotation.
    publish(deletion);
    publish(userEvent('created', 112, 1));
    await until(() => row(112), Boolean);
    await new Promise((r) => setTimeout(r, 300));
    expect(h.events!.events.filter((e) => e.routingKey === 'schedule_rotation_user.deleted')).toHaveLength(2);
    const again = await member(rotations[1].body.data.id, 110);
    expect(again.status).toBe(422);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/user_id');
  });

  it('a deletion arriving while a member write holds the user waits for it, then removes that membership too', async () => {
    await seedUsers(knex, [
      { team_id: TEAM, user_id: 1 },
      { team_id: TEAM, user_id: 130 },
    ]);
    const schedule = await h.create('schedules', { name: 'Racing', owner_user_id: 1 });
    const rotation = await h.call('POST', `/v1/schedules/${schedule.body.data.id}/schedule_rotations`, {
      body: {
        data: {
          type: 'schedule_rotations',
          attributes: {
            name: 'Race',
            schedule_rotationable_type: 'ScheduleDailyRotation',
            schedule_rotationable_attributes: { handoff_time: '09:00' },
          },
        },
      },
    });
    const users = createUsersRepository();
    // The member write's transaction, as the kit runs it: check the user, then insert.
    const memberId = await knex.transaction(async (tx) => {
      expect(await users.existing(tx, TEAM, [130])).toEqual(new Set([130]));
      publish(userEvent('deleted', 130, 2));
      await new Promise((r) => setTimeout(r, 500));
      // The consumer has the event by now, and waits on the row this transaction holds.
      expect((await row(130)).deleted_at).toBeNull();
      const [inserted] = await tx('schedule_rotation_users')
        .insert({ team_id: TEAM, schedule_rotation_id: rotation.body.data.id, user_id: 130, position: 1 })
        .returning('id');
      return inserted.id as string;
    });
    await h.events!.waitFor((events) =>
      events.some((e) => e.routingKey === 'schedule_rotation_user.deleted' && (e.body.data as { id: string }).id === memberId),
    );
    expect(await knex('schedule_rotation_users').where({ id: memberId }).first()).toBeUndefined();
    expect((await row(130)).deleted_at).not.toBeNull();
  });

  it("a user event not published by auth's broker user is dropped and changes nothing; a genuine one still applies", async () => {
    publish(userEvent('created', 140, 1, { name: 'Cy' }));
    await until(() => row(140), Boolean);
    // A broker whose topic permissions were forgotten lets incident-config's user route user.* events:
    // then the consumer's rule is all that stands between them and the read model.
    const icUser = broker.users['incident-config']!;
    await dropTopicPermissions(icUser.user);
    const icConn = await amqp.connect(icUser.url);
    try {
      const icCh = await icConn.createConfirmChannel();
      publish(userEvent('deleted', 140, 99, { name: 'Cy' }), icCh, icUser.user);
      await icCh.waitForConfirms();
    } finally {
      await icConn.close().catch(() => undefined);
    }
    // Without user-id (the broker lets a publisher leave it out) auth's own user is not believed either.
    publish(userEvent('updated', 140, 98, { name: 'No user-id' }), ch, null);
    publish(userEvent('created', 141, 1));
    await until(() => row(141), Boolean);
    expect(await row(140)).toMatchObject({ name: 'Cy', version: 1, deleted_at: null });

    publish(userEvent('updated', 140, 2, { name: 'Cy Young' }));
    await until(
      () => row(140),
      (r) => r?.version === 2,
    );
    expect(await row(140)).toMatchObject({ name: 'Cy Young', deleted_at: null });
  });

  it('a user made in another team is not a user of this one', async () => {
    publish(userEvent('created', 120, 1, {}, TEAM + 1));
    await until(() => row(120), Boolean);
    const schedule = await h.create('schedules', { name: 'Foreign owner', owner_user_id: 120 });
    expect(schedule.status).toBe(422);
  });
});
