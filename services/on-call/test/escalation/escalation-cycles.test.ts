import fc from 'fast-check';
import { escalationCycle, withLevel, withNames, type EscalationGraph } from '../../src/domain/escalation/escalation-cycles.js';
import type { LevelTarget } from '../../src/domain/paging/paging.ports.js';

const escalate = (team: string): LevelTarget => ({ type: 'team', id: team, team_members: 'escalate' });
const service = (id: string): LevelTarget => ({ type: 'service', id });
/** Policies by id with the teams they name (and, `services`, the services they name). */
const graph = (
  policies: Record<string, string[]>,
  levels: [string, LevelTarget[]][],
  services: Record<string, string[]> = {},
): EscalationGraph => ({
  policies: Object.entries(policies).map(([id, group_ids]) => ({ id, group_ids, service_ids: services[id] ?? [] })),
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

  it('follows a service target to the policies naming the service, as the paging engine does', () => {
    expect(escalationCycle(graph({ a: [] }, [['a', [service('sa')]]], { a: ['sa'] }), 'a')).toEqual(['a', 'a']);
    // a pages service sb (policy b), b escalates to team ta (policy a): a pages itself through both kinds.
    const g = graph(
      { a: ['ta'], b: [] },
      [
        ['a', [service('sb')]],
        ['b', [escalate('ta')]],
      ],
      { b: ['sb'] },
    );
    expect(escalationCycle(g, 'a')).toEqual(['a', 'b', 'a']);
    expect(escalationCycle(g, 'b')).toEqual(['b', 'a', 'b']);
    // A team and a service of the same id are different targets.
    expect(escalationCycle(graph({ a: ['x'] }, [['a', [service('x')]]]), 'a')).toBeNull();
  });

  it('ignores team targets that page members, and other target types', () => {
    const g = graph({ a: ['ta'] }, [
      [
        'a',
        [
          { type: 'team', id: 'ta', team_members: 'all' },
          { type: 'team', id: 'ta', team_members: 'admins' },
          { type: 'service', id: 'ta' },
          { type: 'schedule', id: 'ta' },
          { type: 'user', id: '1' },
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

  it('judges the graph a write would leave: new teams or services, a new or changed level', () => {
    const g = graph({ a: ['ta'], b: [] }, [['a', [escalate('tb')]]]);
    expect(escalationCycle(withNames(g, 'b', { group_ids: ['tb'] }), 'b')).toBeNull();
    const named = withNames(g, 'b', { group_ids: ['tb'] });
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
    // A policy naming a service its own level pages; naming teams leaves its services as they were.
    const paging = graph({ c: [] }, [['c', [service('sc')]]]);
    expect(escalationCycle(withNames(paging, 'c', { service_ids: ['sc'] }), 'c')).toEqual(['c', 'c']);
    expect(escalationCycle(withNames(withNames(paging, 'c', { service_ids: ['sc'] }), 'c', { group_ids: ['tc'] }), 'c')).toEqual([
      'c',
      'c',
    ]);
  });
});

/** Whether policy `to` pages policy `from` directly: a level of `from` escalates to a team, or pages a service, that `to` names. */
function pages(g: EscalationGraph, from: string, to: string): boolean {
  const target = g.policies.find((p) => p.id === to)!;
  return g.levels.some(
    (l) =>
      l.escalation_policy_id === from &&
      l.notification_target_params.some(
        (t) =>
          (t.type === 'team' && t.team_members === 'escalate' && target.group_ids.includes(t.id)) ||
          (t.type === 'service' && target.service_ids.includes(t.id)),
      ),
  );
}

/** The fewest steps from `from` back to `to` by naive relaxation, or null. */
function shortestBack(g: EscalationGraph, from: string): number | null {
  const ids = g.policies.map((p) => p.id);
  let frontier = new Set(ids.filter((id) => pages(g, from, id)));
  const seen = new Set<string>();
  for (let steps = 1; frontier.size; steps++) {
    if (frontier.has(from)) return steps;
    for (const id of frontier) seen.add(id);
    frontier = new Set(ids.filter((to) => !seen.has(to) && [...frontier].some((at) => pages(g, at, to))));
  }
  return null;
}

describe('escalationCycle on any graph', () => {
  const names = fc.subarray(['t1', 't2', 't3', 's1', 's2']);
  const target = fc.oneof(
    fc.record({
      type: fc.constant('team' as const),
      id: fc.constantFrom('t1', 't2', 't3'),
      team_members: fc.constantFrom('all' as const, 'escalate' as const),
    }),
    fc.record({ type: fc.constant('service' as const), id: fc.constantFrom('s1', 's2') }),
  );
  const graphs = fc
    .tuple(
      fc.array(names, { minLength: 1, maxLength: 6 }),
      fc.array(fc.tuple(fc.nat(5), fc.array(target, { maxLength: 3 })), { maxLength: 10 }),
    )
    .map(([named, levels]): EscalationGraph => ({
      policies: named.map((n, i) => ({
        id: `p${i}`,
        group_ids: n.filter((x) => x.startsWith('t')),
        service_ids: n.filter((x) => x.startsWith('s')),
      })),
      levels: levels.map(([owner, targets], i) => ({
        id: `l${i}`,
        escalation_policy_id: `p${owner % named.length}`,
        notification_target_params: targets,
      })),
    }));

  it('finds a way back exactly when there is one, the shortest, each step a real page', () => {
    fc.assert(
      fc.property(graphs, (g) => {
        for (const { id } of g.policies) {
          const cycle = escalationCycle(g, id);
          const expected = shortestBack(g, id);
          if (expected === null) expect(cycle).toBeNull();
          else {
            expect(cycle).not.toBeNull();
            expect(cycle!.length - 1).toBe(expected);
            expect([cycle![0], cycle!.at(-1)]).toEqual([id, id]);
            for (let i = 0; i + 1 < cycle!.length; i++) expect(pages(g, cycle![i]!, cycle![i + 1]!)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
