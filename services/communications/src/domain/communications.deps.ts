import type { Transaction } from '@firewatch/resource-kit';
import type { LiquidPool } from './liquid/render-pool.js';

/** A record named in a response or an error: its id and name. */
export interface Named {
  id: string;
  name: string;
}

/** The tables the communications declarations share; each a team's own rows. */
export type CommunicationsTable = 'communications_types' | 'communications_stages' | 'communications_templates';

/** The reads the declarations' hooks make across resources, in the operation's transaction. */
export interface CommunicationsStore {
  /**
   * The team's types or stages among `ids`. Each found row is held (FOR KEY SHARE) until the
   * transaction ends, so a delete of it waits and then sees the template that uses it.
   */
  held(tx: Transaction, table: 'communications_types' | 'communications_stages', teamId: number, ids: readonly string[]): Promise<Named[]>;
  /** Names of the types or stages with these ids (any team: the ids come from the team's own rows), by id. */
  namesOf(tx: Transaction | undefined, table: 'communications_types' | 'communications_stages', ids: readonly string[]): Promise<Map<string, string>>;
  /** The team's templates of this type. */
  templatesOfType(tx: Transaction, teamId: number, typeId: string): Promise<Named[]>;
  /** The team's templates with content for this stage. */
  templatesOfStage(tx: Transaction, teamId: number, stageId: string): Promise<Named[]>;
}

/** What the communications declarations receive as `deps`. */
export interface CommunicationsDeps {
  communications: CommunicationsStore;
  /** Where templates are parsed (writes) and rendered (previews), off the event loop. */
  liquid: LiquidPool;
}
