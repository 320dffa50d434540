import type { LevelTarget } from '../paging/paging.ports.js';

/** What the cycle check reads of a team's policies: the teams each names, and its levels' targets. */
export interface EscalationGraph {
  policies: readonly { id: string; group_ids: readonly string[] }[];
  levels: readonly { id: string; escalation_policy_id: string; notification_target_params: readonly LevelTarget[] }[];
}

/**
 * The policies `policyId` pages through its levels' `{type: team, team_members: escalate}`
 * targets: a team escalates to every policy naming it in `group_ids` (paging.ports.ts,
 * TargetResolution.policies).
 */
function escalatesTo(graph: EscalationGraph): Map<string, Set<string>> {
  const policiesOfTeam = new Map<string, string[]>();
  for (const p of graph.policies) for (const g of p.group_ids) policiesOfTeam.set(g, [...(policiesOfTeam.get(g) ?? []), p.id]);
  const edges = new Map<string, Set<string>>(graph.policies.map((p) => [p.id, new Set<string>()]));
  for (const level of graph.levels) {
    for (const t of level.notification_target_params) {
      if (t.type !== 'team' || t.team_members !== 'escalate') continue;
      for (const next of policiesOfTeam.get(t.id) ?? []) edges.get(level.escalation_policy_id)?.add(next);
    }
  }
  return edges;
}

/**
 * A cycle through `policyId`: the policy ids from it back to it (`[a, b, a]`; `[a, a]`
 * when a level of `a` escalates to a team `a` names), or null when none leads back. Only
 * cycles through the written policy are looked for: every write is checked, so none
 * elsewhere can exist. Breadth-first, so the shortest cycle is the one told.
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

/** The graph with one policy's `group_ids` as a write would leave them. */
export function withGroups(graph: EscalationGraph, policyId: string, groupIds: readonly string[]): EscalationGraph {
  const others = graph.policies.filter((p) => p.id !== policyId);
  return { ...graph, policies: [...others, { id: policyId, group_ids: groupIds }] };
}

/** The graph with one level (new: no id yet) as a write would leave it. */
export function withLevel(
  graph: EscalationGraph,
  level: { id?: string; escalation_policy_id: string; notification_target_params: readonly LevelTarget[] },
): EscalationGraph {
  const others = graph.levels.filter((l) => level.id === undefined || l.id !== level.id);
  return { ...graph, levels: [...others, { ...level, id: level.id ?? '' }] };
}
