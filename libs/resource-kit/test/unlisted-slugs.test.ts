import { unlistedSlug } from '../src/index.js';
import { startKitHarness, type KitHarness } from './support/kit-harness.js';

let kit: KitHarness;
beforeAll(async () => {
  kit = await startKitHarness('fw_kit_unlisted_slugs');
});
afterAll(async () => {
  await kit?.close();
});

const board = (attributes: Record<string, unknown>) => ({ data: { type: 'boards', attributes } });
const create = async (attributes: Record<string, unknown>, principal: Record<string, unknown> = { user_id: 10 }) => {
  const res = await kit.call('POST', '/v1/boards', board(attributes), principal);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; attributes: { slug: string } };
};
const UNLISTED = (base: string) => new RegExp(`^${base}-[a-z]{10}$`);

// Boards declare slug.hidden for private ones; their owner groups hide other groups' boards from group keys.
describe('slugs that tell nothing of records the caller cannot see', () => {
  it('are never base or base-<n>, and differ each time', () => {
    const slugs = Array.from({ length: 50 }, () => unlistedSlug('ops'));
    for (const slug of slugs) expect(slug).toMatch(UNLISTED('ops'));
    expect(new Set(slugs).size).toBe(50);
  });

  it('keep a private record off the sequence, so a later public one of that name gets the base', async () => {
    const hidden = await create({ name: 'Payroll', is_private: true });
    expect(hidden.attributes.slug).toMatch(UNLISTED('payroll'));
    expect((await create({ name: 'Payroll' }, { user_id: 11 })).attributes.slug).toBe('payroll');
    // The other way round: a private record made after a public one takes no -2 either.
    expect((await create({ name: 'Payroll', is_private: true })).attributes.slug).toMatch(UNLISTED('payroll'));
    expect((await create({ name: 'Payroll' }, { user_id: 11 })).attributes.slug).toBe('payroll-2');
  });

  it('move a record that becomes hidden off the sequence, freeing its slug', async () => {
    const open = await create({ name: 'Roadmap' });
    expect(open.attributes.slug).toBe('roadmap');
    const hidden = await kit.call('PATCH', `/v1/boards/${open.id}`, board({ is_private: true }), { user_id: 10 });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data.attributes.slug).toMatch(UNLISTED('roadmap'));
    expect((await create({ name: 'Roadmap' }, { user_id: 11 })).attributes.slug).toBe('roadmap');
    // Becoming visible again needs no new slug.
    const shown = await kit.call('PATCH', `/v1/boards/${open.id}`, board({ is_private: false, name: 'Roadmap 2' }), { user_id: 10 });
    expect(shown.body.data.attributes.slug).toBe(hidden.body.data.attributes.slug);
  });

  it("give a group key, which does not see other groups' records, a slug off the sequence", async () => {
    await create({ name: 'Runbook', owner_group_ids: ['g9'] });
    const mine = await create({ name: 'Runbook', owner_group_ids: ['g8'] }, { group_ids: ['g8'] });
    expect(mine.attributes.slug).toMatch(UNLISTED('runbook'));
    expect((await create({ name: 'Runbook' })).attributes.slug).toBe('runbook-2');
  });
});
