import type { EventEnvelope } from '@firewatch/events';
import { EVENT_QUEUES } from '@firewatch/events';
import { TARGET_FAMILIES, toTargetChange } from '../../src/domain/targets/target-event.js';

const ID = '0b5a6c1e-3f1d-4c2a-9d3e-6a7b8c9d0e1f';

const envelope = (type: string, data: unknown, occurred_at = '2026-11-25T10:00:05.000Z'): EventEnvelope => ({
  id: 'e1',
  type,
  occurred_at,
  team_id: 7,
  data,
});

describe('toTargetChange', () => {
  it('reads a service, functionality or team from its event: the team from the envelope, the time from updated_at', () => {
    const data = { id: ID.toUpperCase(), type: 'services', attributes: { name: 'Payments', updated_at: '2026-11-25T10:00:00.000Z' } };
    expect(toTargetChange(envelope('service.updated', data))).toEqual({
      team_id: 7,
      target_type: 'Service',
      target_id: ID,
      name: 'Payments',
      changed_at: new Date('2026-11-25T10:00:00.000Z'),
      deleted_at: null,
      member_ids: [],
      admin_ids: [],
    });
    expect(toTargetChange(envelope('functionality.created', { ...data, type: 'functionalities' }))).toMatchObject({
      target_type: 'Functionality',
    });
    const team = { id: ID, type: 'groups', attributes: { name: 'SRE', slug: 'sre', user_ids: [1], admin_ids: [] } };
    expect(toTargetChange(envelope('group.deleted', team))).toMatchObject({
      target_type: 'Group',
      // No updated_at: the event's time orders it.
      changed_at: new Date('2026-11-25T10:00:05.000Z'),
      deleted_at: new Date('2026-11-25T10:00:05.000Z'),
      // A tombstone pages nobody.
      member_ids: [],
      admin_ids: [],
    });
  });

  it("keeps a live team's members and admins, admins counted as members, each once", () => {
    const team = { id: ID, type: 'groups', attributes: { name: 'SRE', user_ids: [3, 1, 3], admin_ids: [9, 1] } };
    expect(toTargetChange(envelope('group.updated', team))).toMatchObject({ member_ids: [3, 1, 9], admin_ids: [9, 1] });
    expect(toTargetChange(envelope('group.created', { ...team, attributes: { name: 'SRE' } }))).toMatchObject({
      member_ids: [],
      admin_ids: [],
    });
    expect(toTargetChange(envelope('group.updated', { ...team, attributes: { user_ids: ['3'] } }))).toHaveProperty('invalid');
    // A service's own lists, whatever they hold, are no team's people.
    const service = { id: ID, type: 'services', attributes: { name: 'x', user_ids: ['a'] } };
    expect(toTargetChange(envelope('service.updated', service))).toMatchObject({ member_ids: [], admin_ids: [] });
  });

  it('refuses what no redelivery would make valid', () => {
    const data = { id: ID, type: 'services', attributes: { name: 'x' } };
    expect(toTargetChange(envelope('service.renamed', data))).toEqual({ invalid: 'not a target event: service.renamed' });
    expect(toTargetChange(envelope('user.created', data))).toEqual({ invalid: 'not a target event: user.created' });
    expect(toTargetChange(envelope('functionality.created', data))).toEqual({ invalid: 'data.type is services, not functionalities' });
    expect(toTargetChange(envelope('service.created', { ...data, id: 'svc-1' }))).toHaveProperty('invalid');
    expect(toTargetChange(envelope('service.created', null))).toHaveProperty('invalid');
    expect(toTargetChange(envelope('service.created', data, 'yesterday'))).toEqual({ invalid: 'occurred_at is not a time: yesterday' });
    expect(toTargetChange({ ...envelope('service.created', data), team_id: 2 ** 31 })).toEqual({
      invalid: 'team_id is not a team: 2147483648',
    });
  });

  it("is fed by every family on-call's queue is bound to besides users", () => {
    const bound = EVENT_QUEUES['on-call'].bindings.map((b) => b.replace(/\.\*$/, ''));
    expect([...bound].sort()).toEqual(['user', ...TARGET_FAMILIES].sort());
  });
});
