import type { Transaction } from '@firewatch/resource-kit';
import type { LiquidPool } from './liquid/render-pool.js';

/** A record named in a response or an error: its id and name. */
export interface Named {
  id: string;
  name: string;
}

/** What a template's hooks read of the records it names: the team's types, or its stages. */
export interface NamedRecordsStore {
  /**
   * The team's records among `ids`. Each found row is held (FOR KEY SHARE) until the
   * transaction ends, so a delete of it waits and then sees the template that uses it.
   */
  held(tx: Transaction, teamId: number, ids: readonly string[]): Promise<Named[]>;
  /** Names of the records with these ids (any team: the ids come from the team's own rows), by id. */
  namesOf(tx: Transaction | undefined, ids: readonly string[]): Promise<Map<string, string>>;
}

/** What a type's or a stage's delete reads of the templates that use it. */
export interface TemplatesStore {
  /** The team's templates of this type. */
  ofType(tx: Transaction, teamId: number, typeId: string): Promise<Named[]>;
  /** The team's templates with content for this stage. */
  ofStage(tx: Transaction, teamId: number, stageId: string): Promise<Named[]>;
}

/** The reads the declarations' hooks make across resources, in the operation's transaction. */
export interface CommunicationsStore {
  types: NamedRecordsStore;
  stages: NamedRecordsStore;
  templates: TemplatesStore;
}

/** What the communications declarations receive as `deps`. */
export interface CommunicationsDeps {
  communications: CommunicationsStore;
  /** Where templates are parsed (writes) and rendered (previews), off the event loop. */
  liquid: LiquidPool;
}
