import { operator } from '../src/domain/credential-bounds.rules.js';
import { startHarness, type Harness } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** The `user.*` events written since `seq`, oldest first. */
async function userEvents(afterSeq: number) {
  const rows = await h.db.knex('outbox').where('seq', '>', afterSeq).where('type', 'like', 'user.%').orderBy('seq');
  return rows.map((r) => r.payload);
}
async function lastSeq(): Promise<number> {
  const row = await h.db.knex('outbox').max('seq as max').first();
  return Number(row?.max ?? 0);
}

describe('user.* events', () => {
  it('create, update and delete each emit their event in the write transaction, without secrets', async () => {
    const from = await lastSeq();
    const created = await h.services.identity.createUser({
      team_id: h.team.id,
      email: 'Ana@One.test',
      name: 'Ana',
      on_call_role: 'admin',
      password: 'correct horse battery',
    });
    const id = Number(created.id);
    await h.services.identity.updateUser(h.team.id, id, { name: 'Ana Lima', password: 'another long password' });
    await h.services.users.remove(operator(h.team.id), String(id));
    const events = await userEvents(from);
    expect(events.map((e) => e.type)).toEqual(['user.created', 'user.updated', 'user.deleted']);
    for (const e of events) {
      expect(e.team_id).toBe(h.team.id);
      expect(e.data).toMatchObject({
        id: String(id),
        type: 'users',
        attributes: { team_id: h.team.id, email: 'ana@one.test', role: 'user', on_call_role: 'admin', time_zone: 'Etc/UTC' },
      });
      expect(JSON.stringify(e)).not.toMatch(/password|hash|correct horse|\$argon|\$scrypt/i);
    }
    expect(events.map((e) => e.data.attributes.name)).toEqual(['Ana', 'Ana Lima', 'Ana Lima']);
    expect(events.map((e) => [e.data.attributes.first_name, e.data.attributes.last_name])).toEqual([
      ['Ana', null],
      ['Ana', 'Lima'],
      ['Ana', 'Lima'],
    ]);
    expect(events.map((e) => e.data.meta.version)).toEqual([1, 2, 3]);
    expect(await h.db.knex('users').where({ id }).first()).toBeUndefined();
  });

  it('a failing write emits nothing', async () => {
    const from = await lastSeq();
    await expect(h.services.identity.createUser({ team_id: h.team.id, email: 'user@one.test', name: 'Duplicate' })).rejects.toMatchObject({
      status: 409,
    });
    await expect(h.services.identity.createUser({ team_id: 999_999, email: 'x@y.test', name: 'No team' })).rejects.toMatchObject({
      status: 422,
    });
    await expect(h.services.identity.updateUser(h.team.id, h.team.adminId, { email: 'user@one.test' })).rejects.toMatchObject({
      status: 409,
    });
    await expect(h.services.identity.updateUser(h.team.id, h.team.adminId, {})).rejects.toMatchObject({ status: 422 });
    // Another team's user is unknown, for update and delete alike.
    await expect(h.services.identity.updateUser(h.team.id, h.otherTeam.adminId, { name: 'Taken over' })).rejects.toMatchObject({
      status: 404,
    });
    await expect(h.services.users.remove(operator(h.team.id), String(h.otherTeam.adminId))).rejects.toMatchObject({ status: 404 });
    expect(await userEvents(from)).toEqual([]);
    expect((await h.db.knex('users').where({ id: h.otherTeam.adminId }).first()).name).toBe('Admin 2');
  });

  it("an OAuth application's service user is announced, and cannot be deleted while the application lives", async () => {
    const from = await lastSeq();
    const app = await h.services.oauth.applications.create(operator(h.team.id), { name: 'Bridge', scopes: ['oc.alerts:read'] });
    const [event] = await userEvents(from);
    expect(event).toMatchObject({
      type: 'user.created',
      team_id: h.team.id,
      data: { type: 'users', attributes: { is_service_account: true, name: 'Bridge (OAuth application)' } },
    });
    const serviceUserId = Number(event.data.id);
    await expect(h.services.users.remove(operator(h.team.id), String(serviceUserId))).rejects.toMatchObject({ status: 409 });
    expect(await userEvents(from)).toHaveLength(1);
    await h.services.oauth.applications.revoke(h.team.id, app.resource.id);
    await h.services.users.remove(operator(h.team.id), String(serviceUserId));
    expect((await userEvents(from)).map((e) => e.type)).toEqual(['user.created', 'user.deleted']);
  });

  it('announce re-sends every user of a team (or all) as user.updated with its current version', async () => {
    const from = await lastSeq();
    await h.services.identity.updateUser(h.team.id, h.team.userId, { role: 'observer' });
    const afterUpdate = await lastSeq();
    expect(await h.services.identity.announceUsers(h.team.id)).toEqual({
      announced: (await h.services.identity.listUsers(h.team.id)).length,
    });
    const announced = await userEvents(afterUpdate);
    expect(new Set(announced.map((e) => e.type))).toEqual(new Set(['user.updated']));
    expect(announced.every((e) => e.team_id === h.team.id)).toBe(true);
    const user = announced.find((e) => e.data.id === String(h.team.userId));
    expect(user.data).toMatchObject({ attributes: { role: 'observer' }, meta: { version: 2 } });
    const all = await h.services.identity.announceUsers();
    expect(all.announced).toBe(Number((await h.db.knex('users').count('* as n').first())?.n));
    expect((await userEvents(from)).length).toBe(1 + announced.length + all.announced);
  });
});
