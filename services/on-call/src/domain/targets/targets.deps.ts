import type { Transaction } from '@firewatch/resource-kit';

/** What an alert group's target may be (the reference's `target_type`). */
export const TARGET_TYPES = ['Group', 'Service', 'EscalationPolicy', 'Functionality'] as const;

export type TargetType = (typeof TARGET_TYPES)[number];

/** The known targets as on-call's declarations see them (`ctx.deps.targets`). */
export interface TargetsDeps {
  /**
   * The types each of `ids` (lowercase UUIDs) names among the team's live targets:
   * services, functionalities and teams from the read model of their events
   * (target-sync.ts), and on-call's own records that may be targets. An id not known is
   * absent; an id known under two types (never, with random UUIDs) lists both.
   */
  typesOf(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Map<string, TargetType[]>>;
}
