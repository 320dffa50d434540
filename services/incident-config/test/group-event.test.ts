import { toGroupChange } from '../src/domain/groups/group-event.js';

const ID = '0B6F3C1E-5A2D-4E8F-9C7B-1D2E3F4A5B6C';
const envelope = (type: string, data: unknown, occurred_at = '2026-11-25T10:00:05Z') => ({
  id: 'e1',
  type,
  occurred_at,
  team_id: 4,
  data,
});
const group = (attributes: Record<string, unknown> = {}) => ({
  id: ID,
  type: 'groups',
  attributes: { name: 'Payments', slug: 'payments', user_ids: [1], admin_ids: [1], updated_at: '2026-11-25T10:00:00.123Z', ...attributes },
});

describe('a group event as a change of the teams read model', () => {
  it("takes the tenant from the envelope, the id in PostgreSQL's spelling and auth's updated_at", () => {
    expect(toGroupChange(envelope('group.updated', group()))).toEqual({
      team_id: 4,
      id: ID.toLowerCase(),
      name: 'Payments',
      slug: 'payments',
      updated_at: new Date('2026-11-25T10:00:00.123Z'),
      occurred_at: new Date('2026-11-25T10:00:05Z'),
      deleted_at: null,
    });
  });

  it('marks a deletion at the time of the event, and orders an event without updated_at by its own time', () => {
    const change = toGroupChange(envelope('group.deleted', group({ updated_at: undefined, slug: null })));
    expect(change).toMatchObject({
      slug: null,
      updated_at: new Date('2026-11-25T10:00:05Z'),
      deleted_at: new Date('2026-11-25T10:00:05Z'),
    });
  });

  it.each([
    ['another family', envelope('user.created', group()), /not a group event/],
    ['an id that is no UUID', envelope('group.created', { ...group(), id: 'ops' }), /^id: /],
    ['another type', envelope('group.created', { ...group(), type: 'users' }), /^type: /],
    ['no name', envelope('group.created', group({ name: undefined })), /attributes\.name/],
    ['a time that is none', envelope('group.created', group({ updated_at: 'soon' })), /attributes\.updated_at: is not a time/],
    ['no occurred_at', envelope('group.created', group(), 'never'), /occurred_at is not a time/],
    ['a tenant no integer column holds', { ...envelope('group.created', group()), team_id: 2 ** 31 }, /team_id is not a tenant/],
  ])('refuses %s, which no redelivery would mend', (_, env, reason) => {
    const change = toGroupChange(env);
    expect(change).toEqual({ invalid: expect.stringMatching(reason) });
  });
});
