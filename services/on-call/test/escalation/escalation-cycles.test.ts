import { escalationCycle, withGroups, withLevel, type EscalationGraph } from '../../src/domain/escalation/escalation-cycles.js';
import type { LevelTarget } from '../../src/domain/paging/paging.ports.js';

const escalate = (team: string): LevelTarget => ({ type: 'team', id: team, team_members: 'escalate' });
const graph = (policies: Record<string, string[]>, levels: [string, LevelTarget[]][]): EscalationGraph => ({
  policies: Object.entries(policies).map(([id, group_ids]) => ({ id, group_ids })),
  levels: levels.map(([policy, targets], i) => ({ id: `l${i}`, escalation_policy_id: policy, notification_target_params: targets })),
});

describe('escalationCycle', () => {
  it('finds none where team escalations lead elsewhere', () => {
    const g = graph({ a: ['ta'], b: ['tb'], c: [] }, [
      ['a', [escalate('tb')]],
      ['b', [escalate('tc')]],
    ]);
    expect(escalationCycle(g, 'a')).toBeNull();
    expect(escalationCycle(g, 'b')).toBeNull();
  });

  it('finds a policy escalating to a team it names itself', () => {
    expect(escalationCycle(graph({ a: ['ta'] }, [['a', [escalate('ta')]]]), 'a')).toEqual(['a', 'a']);
  });

  it('finds the shortest way back through several policies', () => {
    const g = graph({ a: ['ta'], b: ['tb'], c: ['tc'] }, [
      ['a', [escalate('tb')]],
      ['b', [escalate('tc'), escalate('ta')]],
      ['c', [escalate('ta')]],
    ]);
    expect(escalationCycle(g, 'a')).toEqual(['a', 'b', 'a']);
    expect(escalationCycle(g, 'c')).toEqual(['c', 'a', 'b', 'c']);
  });

  it('ignores team targets that page members, and other target types', () => {
    const g = graph({ a: ['ta'] }, [
      [
        'a',
        [
          { type: 'team', id: 'ta', team_members: 'all' },
          { type: 'team', id: 'ta', team_members: 'admins' },
          { type: 'service', id: 'ta' },
        ],
      ],
    ]);
    expect(escalationCycle(g, 'a')).toBeNull();
  });

  it('reports only cycles through the policy asked about', () => {
    const g = graph({ a: ['ta'], b: ['tb'] }, [
      ['a', [escalate('tb')]],
      ['b', [escalate('tb')]],
    ]);
    expect(escalationCycle(g, 'a')).toBeNull();
    expect(escalationCycle(g, 'b')).toEqual(['b', 'b']);
  });

  it('judges the graph a write would leave: new groups, a new or changed level', () => {
    const g = graph({ a: ['ta'], b: [] }, [['a', [escalate('tb')]]]);
    expect(escalationCycle(withGroups(g, 'b', ['tb']), 'b')).toBeNull();
    const named = withGroups(g, 'b', ['tb']);
    expect(escalationCycle(withLevel(named, { escalation_policy_id: 'b', notification_target_params: [escalate('ta')] }), 'b')).toEqual([
      'b',
      'a',
      'b',
    ]);
    // Changing level l0 away from team tb breaks the way back.
    const changed = withLevel(withLevel(named, { escalation_policy_id: 'b', notification_target_params: [escalate('ta')] }), {
      id: 'l0',
      escalation_policy_id: 'a',
      notification_target_params: [],
    });
    expect(escalationCycle(changed, 'b')).toBeNull();
  });
});
