import { toUserChange } from '../../src/domain/users/user-event.js';

const envelope = (type: string, data: Record<string, unknown> = {}, occurred_at = '2026-11-23T10:00:00.000Z') => ({
  id: 'e1',
  type,
  occurred_at,
  team_id: 4,
  data: {
    id: '12',
    type: 'users',
    attributes: { name: 'Ana', email: 'ana@x.test', role: 'user', on_call_role: 'admin', team_id: 4, is_service_account: false },
    meta: { version: 3 },
    ...data,
  },
});

describe('toUserChange', () => {
  it("reads a user event into the read model's row; only a deletion sets deleted_at", () => {
    expect(toUserChange(envelope('user.updated'))).toEqual({
      user_id: 12,
      team_id: 4,
      name: 'Ana',
      email: 'ana@x.test',
      role: 'user',
      on_call_role: 'admin',
      is_service_account: false,
      time_zone: null,
      version: 3,
      occurred_at: new Date('2026-11-23T10:00:00.000Z'),
      deleted_at: null,
    });
    expect(toUserChange(envelope('user.deleted'))).toMatchObject({ deleted_at: new Date('2026-11-23T10:00:00.000Z') });
    const zoned = envelope('user.updated');
    Object.assign(zoned.data.attributes, { time_zone: 'America/Chicago' });
    expect(toUserChange(zoned)).toMatchObject({ time_zone: 'America/Chicago' });
  });

  it.each([
    ['another type', envelope('schedule.created')],
    ['no version', envelope('user.created', { meta: {} })],
    ['a version below 1', envelope('user.created', { meta: { version: 0 } })],
    ['an id beyond integer range', envelope('user.created', { id: '2147483648' })],
    ['a non-numeric id', envelope('user.created', { id: 'abc' })],
    ['another resource type', envelope('user.created', { type: 'teams' })],
    ['a bad time', envelope('user.created', {}, 'yesterday')],
    ['an empty time zone', envelope('user.created', { attributes: { ...envelope('x').data.attributes, time_zone: '' } })],
  ])('refuses an event with %s', (_, e) => {
    expect(toUserChange(e)).toEqual({ invalid: expect.any(String) });
  });
});
