import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { OnCallHarness } from './support/on-call-harness.js';
import { doc, pointers, startWithUsers } from './support/schedules.fixture.js';
import { seedTeam } from './support/teams.fixture.js';

// Issue 22: owner_group_ids on schedules and alert sources name teams of the tenant, known
// from auth's group.* events through the targets read model.
let h: OnCallHarness;
let knex: Knex;
beforeAll(async () => {
  h = await startWithUsers();
  knex = h.db.knex as Knex;
});
afterAll(async () => h?.close());

const RESOURCES = [
  { type: 'schedules', base: { name: 'Platform', owner_user_id: 11 } },
  { type: 'alert_sources', base: { name: 'Prometheus' } },
] as const;

describe.each(RESOURCES)('owner_group_ids of $type name teams', ({ type, base }) => {
  const create = (groups: unknown, principal?: Record<string, unknown>) =>
    h.create(type, { ...base, owner_group_ids: groups }, { principal });
  const put = (id: string, groups: unknown) => h.call('PUT', `/v1/${type}/${id}`, doc(type, { owner_group_ids: groups }));

  it('takes teams of the tenant, stored lower-cased, and refuses unknown, deleted and other tenants’ teams at their index', async () => {
    const team = await seedTeam(knex);
    const made = await create([team.toUpperCase(), team]);
    expect(made.status).toBe(201);
    expect(made.body.data.attributes.owner_group_ids).toEqual([team]);
    expect(
      await knex(type)
        .where({ id: made.body.data.id })
        .first()
        .then((r) => r.owner_group_ids),
    ).toEqual([team]);

    const deleted = await seedTeam(knex, 1, { deleted: true });
    const theirs = await seedTeam(knex, 2);
    const refused = await create([team, 'ops', randomUUID(), deleted, theirs]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.every((e: { code: string }) => e.code === 'invalid_reference')).toBe(true);
    expect(pointers(refused)).toEqual([1, 2, 3, 4].map((i) => `/data/attributes/owner_group_ids/${i}`));
    // Nothing of another tenant's team shows: it is refused in the words an unknown id is.
    expect(refused.body.errors[3].detail).toBe(refused.body.errors[1].detail.replace(/"[^"]+"/, `"${theirs}"`));
    expect(
      await knex(type)
        .where({ team_id: 1 })
        .count()
        .then(([r]) => Number(r.count)),
    ).toBe(1);
  });

  it('passes an id a record holds on PUT, in any spelling, and judges only what is added', async () => {
    const legacy = '7D1C3B2A-0F4E-4A5B-8C6D-9E8F7A6B5C4D';
    const made = await create([]);
    const id = made.body.data.id as string;
    // As migration 0400 may leave a record: a name auth made no team of, a UUID no team has.
    await knex(type)
      .where({ id })
      .update({ owner_group_ids: JSON.stringify(['ops-legacy', legacy.toLowerCase()]) });
    const kept = await put(id, ['ops-legacy', legacy]);
    expect(kept.status).toBe(200);
    expect(kept.body.data.attributes.owner_group_ids).toEqual(['ops-legacy', legacy.toLowerCase()]);
    const team = await seedTeam(knex);
    expect((await put(id, ['ops-legacy', team])).status).toBe(200);
    // Dropped once, a legacy value is no longer held: adding it back is refused.
    const again = await put(id, [team, legacy]);
    expect(again.status).toBe(422);
    expect(pointers(again)).toEqual(['/data/attributes/owner_group_ids/1']);
    expect((await put(id, null)).body.data.attributes.owner_group_ids).toEqual([]);
  });

  it('lets a group key write and see records of its team', async () => {
    const team = await seedTeam(knex);
    const group = { credential: { type: 'api_key', id: 'group-key', kind: 'group' }, group_ids: [team] };
    const made = await create([team], group);
    expect(made.status).toBe(201);
    expect((await h.call('GET', `/v1/${type}/${made.body.data.id}`, { principal: group })).status).toBe(200);
  });
});
