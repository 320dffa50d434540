import type { LevelTarget } from '../paging/paging.ports.js';

/** What the cycle check reads of a team's policies: the teams and services each names, and its levels' targets. */
export interface EscalationGraph {
  policies: readonly { id: string; group_ids: readonly string[]; service_ids: readonly string[] }[];
  levels: readonly { id: string; escalation_policy_id: string; notification_target_params: readonly LevelTarget[] }[];
}

/** The teams and services a policy names (`group_ids`, `service_ids`). */
export type PolicyNames = Pick<EscalationGraph['policies'][number], 'group_ids' | 'service_ids'>;

/**
 * The policies each policy pages through its levels: a `{type: team, team_members:
 * escalate}` target pages the policies naming the team in `group_ids`, and a `service`
 * target those naming the service in `service_ids` (level-resolution.ts pages the oldest
 * of them; any may become the oldest, so every one is an edge).
 */
function escalatesTo(graph: EscalationGraph): Map<string, Set<string>> {
  const naming = new Map<string, string[]>();
  const add = (key: string, policyId: string) => naming.set(key, [...(naming.get(key) ?? []), policyId]);
  for (const p of graph.policies) {
    for (const g of p.group_ids) add(`team:${g}`, p.id);
    for (const s of p.service_ids) add(`service:${s}`, p.id);
  }
  const edges = new Map<string, Set<string>>(graph.policies.map((p) => [p.id, new Set<string>()]));
  for (const level of graph.levels) {
    for (const t of level.notification_target_params) {
      const key = t.type === 'team' && t.team_members === 'escalate' ? `team:${t.id}` : t.type === 'service' ? `service:${t.id}` : null;
      if (!key) continue;
      for (const next of naming.get(key) ?? []) edges.get(level.escalation_policy_id)?.add(next);
    }
  }
  return edges;
}

/**
 * A cycle through `policyId`: the policy ids from it back to it (`[a, b, a]`; `[a, a]`
 * when a level of `a` escalates to a team `a` names), or null when none leads back. Only
 * cycles through the written policy are looked for: every write is checked, so none
 * elsewhere can exist (and one that did would not hold the search up: each policy is
 * visited once). Breadth-first, so the shortest cycle is the one told.
 */
export function escalationCycle(graph: EscalationGraph, policyId: string): string[] | null {
  const edges = escalatesTo(graph);
  const cameFrom = new Map<string, string>();
  const queue = [policyId];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    for (const next of edges.get(at) ?? []) {
      if (next === policyId) {
        const path = [at];
        for (let p = at; p !== policyId;) path.unshift((p = cameFrom.get(p) as string));
        return [...path, policyId];
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, at);
      queue.push(next);
    }
  }
  return null;
}

/** The graph with one policy's `group_ids` and `service_ids` as a write would leave them (those not given as they are). */
export function withNames(graph: EscalationGraph, policyId: string, names: Partial<PolicyNames>): EscalationGraph {
  const old = graph.policies.find((p) => p.id === policyId);
  const others = graph.policies.filter((p) => p.id !== policyId);
  const group_ids = names.group_ids ?? old?.group_ids ?? [];
  const service_ids = names.service_ids ?? old?.service_ids ?? [];
  return { ...graph, policies: [...others, { id: policyId, group_ids, service_ids }] };
}

/** The graph with one level (new: no id yet) as a write would leave it. */
export function withLevel(
  graph: EscalationGraph,
  level: { id?: string; escalation_policy_id: string; notification_target_params: readonly LevelTarget[] },
): EscalationGraph {
  const others = graph.levels.filter((l) => level.id === undefined || l.id !== level.id);
  return { ...graph, levels: [...others, { ...level, id: level.id ?? '' }] };
}
