import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createLogger } from '@firewatch/logger';
import { createUserSyncStore } from '../../src/data/users.repository.js';
import { PERSONAL_DECLARATIONS, registry } from '../../src/domain/registry.js';
import { createUserSync } from '../../src/domain/users/user-sync.js';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { doc } from '../support/schedules.fixture.js';
import { seedUsers } from '../support/users.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startOnCall({ eventPattern: '#' });
  await seedUsers(h.db.knex as Knex, [
    { team_id: 1, user_id: 31 },
    { team_id: 1, user_id: 32 },
  ]);
});
afterAll(async () => h?.close());

const userEvent = (type: string, id: number, version: number, attributes: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  type,
  occurred_at: new Date().toISOString(),
  team_id: 1,
  data: {
    id: String(id),
    type: 'users',
    attributes: {
      email: `u${id}@one.test`,
      name: `User ${id}`,
      role: 'user',
      on_call_role: 'user',
      is_service_account: false,
      ...attributes,
    },
    meta: { version },
  },
});

const sync = () =>
  createUserSync({
    store: createUserSyncStore(h.db.knex as Knex),
    logger: createLogger({ service: 'test', level: 'silent' }),
    memberships: registry.get('schedule_rotation_users'),
    personal: PERSONAL_DECLARATIONS.map(registry.get),
  });

describe('a user deleted in auth', () => {
  it('takes their contact methods and notification rules, each with its deleted event, and leaves others alone', async () => {
    const create = (userId: number, kind: string, type: string, attributes: Record<string, unknown>) =>
      h.call('POST', `/v1/users/${userId}/${kind}`, doc(type, attributes)).then((r) => r.body.data.id as string);
    const email = await create(31, 'email_addresses', 'user_email_addresses', { email: 'gone@example.com' });
    const phone = await create(31, 'phone_numbers', 'user_phone_numbers', { phone: '+14155552671' });
    const rule = await create(31, 'notification_rules', 'user_notification_rules', {
      enabled_contact_types: ['email', 'call'],
      user_email_address_id: email,
      user_call_number_id: phone,
    });
    const spare = await create(31, 'email_addresses', 'user_email_addresses', { email: 'spare@example.com' });
    const kept = await create(32, 'phone_numbers', 'user_phone_numbers', { phone: '+14155552671' });

    expect(await sync().handle(userEvent('user.deleted', 31, 99) as never)).toBe('applied');

    for (const path of [`/v1/email_addresses/${email}`, `/v1/phone_numbers/${phone}`, `/v1/notification_rules/${rule}`])
      expect((await h.call('GET', path)).status).toBe(404);
    expect((await h.call('GET', '/v1/users/31/phone_numbers')).status).toBe(404);
    expect((await h.call('GET', `/v1/phone_numbers/${kept}`)).status).toBe(200);
    type Data = { id: string; attributes: { primary?: boolean } };
    const gone = (es: { routingKey: string; body: Record<string, unknown> }[]) =>
      es
        .filter((e) => e.routingKey.endsWith('.deleted'))
        .map((e) => [e.routingKey, (e.body.data as Data).id, (e.body.data as Data).attributes.primary]);
    await h.events!.waitFor((es) => gone(es).length >= 4);
    // Each says what a read answered: the oldest of its kind was the primary one.
    expect(gone(h.events!.events)).toEqual([
      ['user_notification_rule.deleted', rule, undefined],
      ['user_phone_number.deleted', phone, true],
      ['user_email_address.deleted', email, true],
      ['user_email_address.deleted', spare, false],
    ]);
  });

  it("keeps the time zone auth's events tell, and null from events without one", async () => {
    const zoneOf = async () => (await (h.db.knex as Knex)('users').where({ user_id: 32 }).first('time_zone')).time_zone;
    expect(await sync().handle(userEvent('user.updated', 32, 5, { time_zone: 'Europe/Paris' }) as never)).toBe('applied');
    expect(await zoneOf()).toBe('Europe/Paris');
    expect(await sync().handle(userEvent('user.updated', 32, 4, { time_zone: 'Asia/Tokyo' }) as never)).toBe('stale');
    expect(await zoneOf()).toBe('Europe/Paris');
    expect(await sync().handle(userEvent('user.updated', 32, 6) as never)).toBe('applied');
    expect(await zoneOf()).toBeNull();
  });
});
