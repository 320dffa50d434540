import type { Transaction } from '@firewatch/resource-kit';
import type { EscalationLevelPlan, EscalationPlans, LevelTarget } from '../paging/paging.ports.js';
import type { PolicyPlanRecord, StoredLevel } from './escalation-plans.store.js';
import { resolveLevel, type LevelResolutionDeps } from './level-resolution.js';
import type { PagingStrategy } from './paging-strategy.js';
import { selectPath } from './path-selection.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STRATEGIES: readonly PagingStrategy[] = ['default', 'random', 'cycle', 'alert'];
const TARGET_TYPES: readonly LevelTarget['type'][] = ['user', 'schedule', 'team', 'service', 'slack_channel', 'microsoft_teams_channel'];

/** A stored level as the paging engine's plan: unknown strategies read as the reference's defaults, malformed targets dropped. */
export function levelPlan(level: StoredLevel): EscalationLevelPlan {
  const strategy = level.paging_strategy_configuration_strategy as PagingStrategy;
  return {
    id: level.id,
    position: level.position,
    delay: level.delay,
    paging_strategy: STRATEGIES.includes(strategy) ? strategy : 'default',
    schedule_strategy: level.paging_strategy_configuration_schedule_strategy === 'everyone' ? 'everyone' : 'on_call_only',
    targets: (level.notification_target_params ?? []).filter(
      (t): t is LevelTarget => !!t && typeof t.id === 'string' && TARGET_TYPES.includes(t.type),
    ),
  };
}

/**
 * The escalation plans (paging.ports.ts) over the stored policies, paths and levels:
 * which policy a destination leads to, which path an alert follows, who a level pages.
 */
export function createEscalationPlans(deps: LevelResolutionDeps): EscalationPlans {
  const { store } = deps;
  // A policy is read once per transaction: a page asks for it as a destination (policyFor), then for its path (pathFor).
  const read = new WeakMap<Transaction, Map<string, Promise<PolicyPlanRecord | null>>>();
  const policyPlan = (tx: Transaction, teamId: number, id: string) => {
    const mine = read.get(tx) ?? new Map<string, Promise<PolicyPlanRecord | null>>();
    read.set(tx, mine);
    const key = `${teamId}:${id}`;
    let plan = mine.get(key);
    if (!plan) mine.set(key, (plan = store.policyPlan(tx, teamId, id)));
    return plan;
  };
  return {
    async policyFor(tx, teamId, destination) {
      const id = destination.target_id;
      if (!UUID.test(id)) return null;
      switch (destination.target_type) {
        case 'EscalationPolicy': {
          const found = await policyPlan(tx, teamId, id.toLowerCase());
          return found && { id: found.policy.id, name: found.policy.name };
        }
        // Several policies may name one team or service: the oldest wins (docs/paging.md).
        case 'Group':
          return store.policyNaming(tx, teamId, 'group_ids', id.toLowerCase());
        case 'Service':
          return store.policyNaming(tx, teamId, 'service_ids', id.toLowerCase());
        default:
          // A functionality has no policy; a user is paged directly by the engine.
          return null;
      }
    },

    async pathFor(tx, teamId, policyId, alert, at) {
      if (!UUID.test(policyId)) return null;
      const found = await policyPlan(tx, teamId, policyId.toLowerCase());
      if (!found) return null;
      const { policy } = found;
      const chosen = selectPath(found.paths, alert, policy.business_hours, at);
      if (!chosen) return null;
      const { path, reason } = chosen;
      const levels = found.levels
        ? found.levels.filter((l) => l.escalation_policy_path_id === path.id)
        : await store.levels(tx, teamId, [path.id]);
      return {
        policy: { id: policy.id, name: policy.name },
        path: { id: path.id, name: path.name, is_default: path.is_default },
        initial_delay: Math.max(0, path.initial_delay),
        notification_type: path.notification_type === 'quiet' ? 'quiet' : 'audible',
        // A path repeats by its own setting; a default path without one follows the policy's repeat_count.
        repeat_count: Math.max(0, path.repeat ? path.repeat_count : path.is_default ? policy.repeat_count : 0),
        levels: levels.map(levelPlan),
        reason,
      };
    },

    resolveLevel: (tx, teamId, level, alert, at) => resolveLevel(deps, tx, teamId, level, alert, at),
  };
}
