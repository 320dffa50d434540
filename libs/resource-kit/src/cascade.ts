import type { AnyResourceDefinition } from './resource-definition.js';
import type { EventWriter, Transaction } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import { serialize } from './serialize.js';

/** Announces, inside a delete's transaction, the rows the database deletes with it. */
export type CascadeAnnouncer = (tx: Transaction, teamId: number, ids: readonly string[]) => Promise<void>;

/** Where cascades find the declarations they name and read their rows. */
export interface CascadeDeps {
  /** The service's declarations by name (its registry). */
  declaration(name: string): AnyResourceDefinition;
  writeEvent: EventWriter;
  repositoryOf(def: AnyResourceDefinition): ResourceRepository;
}

/**
 * For a declaration's `cascades`: finds the rows of each dependent declaration that name
 * the deleted records, announces their own dependents first, then writes one
 * `<event>.deleted` per row, as a delete through the API would. The rows themselves go by
 * the foreign key's ON DELETE CASCADE when the owner's row is removed.
 */
export function createCascadeAnnouncer(def: AnyResourceDefinition, deps: CascadeDeps): CascadeAnnouncer {
  const links = (def.cascades ?? []).map((link) => {
    const child = deps.declaration(link.resource);
    return { child, column: link.column, repository: deps.repositoryOf(child), announce: createCascadeAnnouncer(child, deps) };
  });
  return async (tx, teamId, ids) => {
    for (const { child, column, repository, announce } of links) {
      const rows = await repository.findAll(tx, { teamId, where: { [column]: [...ids] } });
      if (!rows.length) continue;
      await announce(
        tx,
        teamId,
        rows.map((r) => String(r.id)),
      );
      for (const row of rows) await deps.writeEvent(tx, { type: `${child.event}.deleted`, team_id: teamId, data: serialize(child, row) });
    }
  };
}
