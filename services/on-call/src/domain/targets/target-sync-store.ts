import type { TargetChange } from './target-event.js';

/** What applying a target event needs from the data layer. */
export interface TargetSyncStore {
  /**
   * Stores the change unless the target is a tombstone or its stored state is newer
   * (`changed_at`); a deletion always lands. True when it was stored.
   */
  apply(change: TargetChange): Promise<boolean>;
}
