import type { ValidationIssue } from '@firewatch/errors';
import type { Row, Transaction } from '@firewatch/resource-kit';

/** Tables of this service whose ids other records list (a service's environment_ids, an incident's functionality_ids). */
export type ReferencedTable = 'environments' | 'services' | 'functionalities';

/** The reads reference checks need, inside the writing transaction; the data layer implements it. */
export interface RecordReferences {
  /** Which of these ids are records of the team in `table`; another team's read as absent. */
  existingIds(tx: Transaction, table: ReferencedTable, teamId: number, ids: readonly string[]): Promise<Set<string>>;
}

/** What a declaration checking references needs in its `deps`. */
export interface ReferenceDeps {
  references: RecordReferences;
}

/**
 * A 422 issue for each listed id that is no record of the team, per id-list attribute
 * present in `attributes` (`{ environment_ids: 'environments' }`). Another team's id is
 * "no record", so its existence does not leak.
 */
export async function referenceIssues(
  references: RecordReferences,
  tx: Transaction,
  teamId: number,
  attributes: Row,
  lists: Readonly<Record<string, ReferencedTable>>,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  for (const [attribute, table] of Object.entries(lists)) {
    const ids = attributes[attribute];
    if (!Array.isArray(ids) || !ids.length) continue;
    const found = await references.existingIds(tx, table, teamId, ids as string[]);
    (ids as string[]).forEach((id, i) => {
      if (!found.has(id)) issues.push({ pointer: `/data/attributes/${attribute}/${i}`, code: 'invalid_reference', detail: `${attribute}: no ${table} record "${id}".` });
    });
  }
  return issues;
}
