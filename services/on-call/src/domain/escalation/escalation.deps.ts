import type { Row, Transaction } from '@firewatch/resource-kit';
import type { EscalationGraph } from './escalation-cycles.js';

/** What the escalation declarations read beyond the kit's own queries (`ctx.deps.escalation`). */
export interface EscalationDeps {
  /**
   * The team's policies and levels as the cycle check reads them. Takes a
   * transaction-scoped lock on the team's escalation graph first, so that two writes
   * each closing half of a cycle run one after the other and the second sees the first.
   */
  graph(tx: Transaction, teamId: number): Promise<EscalationGraph>;
  /** Holds the policy (FOR KEY SHARE) for a path created in it, so that its delete waits for the path; false when it is gone. */
  holdPolicy(tx: Transaction, teamId: number, policyId: string): Promise<boolean>;
  /**
   * Holds the policy (`holdPolicy`) and then its path `pathId`, or its default path when
   * null (FOR SHARE), for a level created in it: a delete of either waits for the level,
   * then removes it with them, and a move into the path waits (`levelsOn`). The path's
   * id, or undefined when the policy or path is gone.
   */
  holdPath(tx: Transaction, teamId: number, policyId: string, pathId: string | null): Promise<string | undefined>;
  /**
   * How many levels the policy's path `pathId` holds, taken after locking the path (FOR
   * NO KEY UPDATE) against creates and other moves into it; undefined when it is no path
   * of the policy.
   */
  levelsOn(tx: Transaction, teamId: number, policyId: string, pathId: string): Promise<number | undefined>;
  /** Which of `ids` are paths of the policy; those found stay locked against deletion until `tx` ends. */
  pathsOf(tx: Transaction, teamId: number, policyId: string, ids: readonly string[]): Promise<Set<string>>;
  /** The ids of the policy's deferral paths executing `pathId` after them (`after_deferral_path_id`). */
  deferralsTo(tx: Transaction, teamId: number, policyId: string, pathId: string): Promise<string[]>;
  /** Makes the policy's default path (other than `exceptId`) an ordinary one, as another path becomes the default; answers the rows changed. */
  unsetDefault(tx: Transaction, teamId: number, policyId: string, exceptId: string | null): Promise<Row[]>;
  /**
   * The ids of the levels of each policy or path, by position (for `include=escalation_policy_levels`);
   * outside a transaction on reads. `owners` are rows the kit loaded for the caller, each read in its own team.
   */
  levelIds(
    tx: Transaction | undefined,
    column: 'escalation_policy_id' | 'escalation_policy_path_id',
    owners: readonly { id: string; team_id: number }[],
  ): Promise<Map<string, string[]>>;
}
