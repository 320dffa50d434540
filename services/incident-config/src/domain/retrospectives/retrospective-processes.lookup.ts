import type { EventWriter, Row, Transaction } from '@firewatch/resource-kit';
import type { ClassificationsDeps } from '../classifications/classification.lookup.js';
import type { GroupsDeps } from '../groups/group-references.js';

/** The retrospective-process reads and writes the declaration's hooks need, in their transaction. */
export interface RetrospectiveProcessStore {
  /** Makes the team's default process (no criteria) unless it has one; the row made, if any. */
  ensureDefault(tx: Transaction, teamId: number, process: { name: string; description: string }): Promise<Row | undefined>;
  /** Whether `id` is a retrospective process of the team. */
  exists(tx: Transaction, teamId: number, id: string): Promise<boolean>;
}

/** What the retrospective processes declaration needs in its `deps` (the tenant's teams: criteria's group_ids). */
export interface RetrospectiveProcessesDeps extends GroupsDeps, ClassificationsDeps {
  retrospectiveProcesses: RetrospectiveProcessStore;
  /** Announces the default process made alongside a team's first one. */
  writeEvent: EventWriter;
}
