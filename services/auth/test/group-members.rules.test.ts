import { settleMembers } from '../src/domain/groups/group-members.rules.js';

describe('settleMembers (admins are members)', () => {
  it('leaves a write that names neither list alone', () => {
    expect(settleMembers({ name: 'x' }, { user_ids: [1], admin_ids: [1] })).toEqual({ name: 'x' });
  });

  it('adds admins sent to the members, after them and once', () => {
    expect(settleMembers({ user_ids: [1, 2], admin_ids: [3, 2] }, undefined)).toEqual({ user_ids: [1, 2, 3], admin_ids: [3, 2] });
    // Admins alone join the members the group already has.
    expect(settleMembers({ admin_ids: [4] }, { user_ids: [1], admin_ids: [] })).toEqual({ user_ids: [1, 4], admin_ids: [4] });
  });

  it('keeps only the admins still among members sent without admins', () => {
    expect(settleMembers({ user_ids: [2] }, { user_ids: [1, 2], admin_ids: [1, 2] })).toEqual({ user_ids: [2], admin_ids: [2] });
    expect(settleMembers({ user_ids: [] }, { user_ids: [1], admin_ids: [1] })).toEqual({ user_ids: [], admin_ids: [] });
  });

  it('always answers admins that are members', () => {
    const cases: [Record<string, unknown>, Record<string, unknown> | undefined][] = [
      [
        { user_ids: [5], admin_ids: [6] },
        { user_ids: [1, 2, 3], admin_ids: [2] },
      ],
      [{ admin_ids: [] }, { user_ids: [1], admin_ids: [1] }],
      [{ user_ids: [9, 8] }, { user_ids: [8], admin_ids: [8, 7] }],
    ];
    for (const [sent, existing] of cases) {
      const { user_ids, admin_ids } = settleMembers(sent, existing) as { user_ids: number[]; admin_ids: number[] };
      expect(admin_ids.every((id) => user_ids.includes(id))).toBe(true);
    }
  });
});
