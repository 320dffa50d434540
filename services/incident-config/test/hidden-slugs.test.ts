import type { Knex } from 'knex';
import { up as unlistSlugs } from '../migrations/20261123-0071-unlisted-slugs.js';
import { startIncidentConfig, type IncidentConfigHarness } from './support/incident-config-harness.js';

let h: IncidentConfigHarness;
beforeAll(async () => {
  h = await startIncidentConfig();
});
afterAll(async () => h?.close());

type Attrs = Record<string, unknown>;
const alice = { user_id: 51, role: 'user' };
const bob = { user_id: 52, role: 'user' };
const admin = { user_id: 50, role: 'admin' };
const UNLISTED = (base: string) => new RegExp(`^${base}-[a-z]{10}$`);
const body = (type: string, attributes: Attrs) => ({ data: { type, attributes } });
const create = async (type: string, attributes: Attrs, principal: Attrs) => {
  const res = await h.call('POST', `/v1/${type}`, { body: body(type, attributes), principal });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; attributes: { slug: string } };
};
const slugOf = async (type: string, attributes: Attrs, principal: Attrs) => (await create(type, attributes, principal)).attributes.slug;

// A caller learns nothing of records it cannot see from the slug its create gets (docs/security.md).
describe('slugs of records hidden from some of the team', () => {
  it("a private incident never makes a guessed title's public incident -2, whichever comes first", async () => {
    expect(await slugOf('incidents', { title: 'Payroll export leak', private: true }, alice)).toMatch(UNLISTED('payroll-export-leak'));
    expect(await slugOf('incidents', { title: 'Payroll export leak' }, bob)).toBe('payroll-export-leak');

    expect(await slugOf('incidents', { title: 'Ledger drift' }, bob)).toBe('ledger-drift');
    expect(await slugOf('incidents', { title: 'Ledger drift', private: true }, alice)).toMatch(UNLISTED('ledger-drift'));
    expect(await slugOf('incidents', { title: 'Ledger drift' }, bob)).toBe('ledger-drift-2');
  });

  it('an incident made private leaves the sequence, and its old slug finds nothing', async () => {
    const open = await create('incidents', { title: 'Vault sealed' }, alice);
    const made = await h.call('PUT', `/v1/incidents/${open.id}`, { body: body('incidents', { private: true }), principal: alice });
    expect(made.status).toBe(200);
    expect(made.body.data.attributes.slug).toMatch(UNLISTED('vault-sealed'));
    expect((await h.call('GET', `/v1/incidents/${made.body.data.attributes.slug}`, { principal: alice })).body.data.id).toBe(open.id);
    expect(await slugOf('incidents', { title: 'Vault sealed' }, bob)).toBe('vault-sealed');
    expect((await h.call('GET', '/v1/incidents/vault-sealed', { principal: admin })).body.data.id).not.toBe(open.id);
  });

  it("a user's dashboard the team does not see takes no slug of the sequence; a team or public one does", async () => {
    expect(await slugOf('dashboards', { name: 'Churn', owner: 'user' }, alice)).toMatch(UNLISTED('churn'));
    expect(await slugOf('dashboards', { name: 'Churn', owner: 'team' }, bob)).toBe('churn');
    expect(await slugOf('dashboards', { name: 'Churn', owner: 'user', public: true }, bob)).toBe('churn-2');

    const shown = await create('dashboards', { name: 'Burn rate', owner: 'user', public: true }, alice);
    expect(shown.attributes.slug).toBe('burn-rate');
    const hidden = await h.call('PUT', `/v1/dashboards/${shown.id}`, { body: body('dashboards', { public: false }), principal: alice });
    expect(hidden.body.data.attributes.slug).toMatch(UNLISTED('burn-rate'));
    expect(await slugOf('dashboards', { name: 'Burn rate', owner: 'team' }, bob)).toBe('burn-rate');
    // A copy is a create: the user's copy is unlisted too.
    const copy = await h.call('POST', `/v1/dashboards/${shown.id}/duplicate`, { principal: alice });
    expect(copy.body.data.attributes.slug).toMatch(UNLISTED('burn-rate-copy'));
  });

  it('moves the hidden records of an earlier install off the sequence (migration 0071)', async () => {
    const knex = h.db.knex as Knex;
    const [incident] = await knex('incidents')
      .insert({ team_id: 9, title: 'Old private', slug: 'old-private', private: true, status: 'started', kind: 'normal' })
      .returning('id');
    const [open] = await knex('incidents')
      .insert({ team_id: 9, title: 'Old open', slug: 'old-open', private: false, status: 'started', kind: 'normal' })
      .returning('id');
    const [dashboard] = await knex('dashboards')
      .insert({ team_id: 9, user_id: 1, name: 'Old mine', slug: 'old-mine', owner: 'user' })
      .returning('id');
    await knex.transaction((tx) => unlistSlugs(tx));
    const slug = async (table: string, row: { id: string }) => (await knex(table).where('id', row.id).first('slug')).slug;
    expect(await slug('incidents', incident)).toMatch(UNLISTED('old-private'));
    expect(await slug('incidents', open)).toBe('old-open');
    expect(await slug('dashboards', dashboard)).toMatch(UNLISTED('old-mine'));
  });
});
