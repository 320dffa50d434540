import type { EventWriter, Row, Transaction, VisibilityClause } from '@firewatch/resource-kit';

/** What a severity or an incident type is named by elsewhere in the service. */
export type Classification = 'severity' | 'incident_type';

/** The records naming one severity or incident type: a delete of it is refused while any does. */
export interface ClassificationUsers {
  /** The incidents naming it that the caller sees. */
  incidents: number;
  /** Whether incidents the caller does not see (private ones, or ones its key does not list) name it too. */
  unseenIncidents: boolean;
  /** Names of the retrospective processes whose matching criteria list it, those the caller sees. */
  retrospectiveProcesses: string[];
  /** Whether processes the caller does not see (its key does not list them) list it too. */
  unseenProcesses: boolean;
}

/** The records a caller sees: incidents its visibility admits (null: all), and with a record-scoped key only those listed. */
export interface CallerSight {
  incidents: readonly VisibilityClause[] | null;
  recordIds: readonly string[] | null;
}

/** The reads and writes the severities and incident types declarations need, in their transaction. */
export interface ClassificationStore {
  /**
   * Runs `seed` once per team ever: in a transaction (`tx`, else one of its own) that first
   * claims the team's marker row, so two first requests racing seed once (the second waits
   * for the first and finds the marker), and a team that deleted every seeded row is not
   * seeded again.
   */
  seedOnce(tx: Transaction | undefined, teamId: number, seed: (tx: Transaction) => Promise<void>): Promise<void>;
  /** Inserts the team's starting severities; the rows made. */
  insertSeverities(tx: Transaction, teamId: number, rows: readonly Row[]): Promise<Row[]>;
  /** The team's severities or incident types with these ids (UUIDs); others are left out. */
  byIds(tx: Transaction | undefined, teamId: number, table: 'severities' | 'incident_types', ids: readonly string[]): Promise<Row[]>;
  /** What names the severity or incident type `id` of the team, told apart by what the caller sees. */
  usersOf(tx: Transaction, teamId: number, kind: Classification, id: string, seen: CallerSight): Promise<ClassificationUsers>;
}

/** What the severities and incident types declarations need in their `deps`. */
export interface ClassificationsDeps {
  classifications: ClassificationStore;
  /** Announces the severities a team starts with. */
  writeEvent: EventWriter;
}
