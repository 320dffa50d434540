import type { Knex } from 'knex';
import { nameOf, type AnyResourceDefinition } from './resource-definition.js';
import type { Transaction } from './resource-shapes.js';
import { createResourceRepository } from './resource.repository.js';
import type { EventWriter } from './resource-writes.js';
import { serialize } from './serialize.js';

/** Announces, inside a delete's transaction, the rows the database deletes with it. */
export type CascadeAnnouncer = (tx: Transaction, teamId: number, ids: readonly string[]) => Promise<void>;

/**
 * For a declaration's `cascades`: finds the rows of each dependent declaration that name
 * the deleted records, announces their own dependents first, then writes one
 * `<event>.deleted` per row, as a delete through the API would. The rows themselves go by
 * the foreign key's ON DELETE CASCADE when the owner's row is removed.
 */
export function createCascadeAnnouncer(
  def: AnyResourceDefinition, knex: Knex, writeEvent: EventWriter, declarations: readonly AnyResourceDefinition[], deps?: unknown,
): CascadeAnnouncer {
  const links = (def.cascades ?? []).map((link) => {
    const child = declarations.find((d) => nameOf(d) === link.type);
    if (!child?.table) throw new Error(`${def.type}: cascades names ${link.type}, which is no stored declaration of this service`);
    return { child, column: link.column, repository: createResourceRepository(child, knex, deps), announce: createCascadeAnnouncer(child, knex, writeEvent, declarations, deps) };
  });
  return async (tx, teamId, ids) => {
    for (const { child, column, repository, announce } of links) {
      const rows = await repository.findAll(tx, { teamId, where: { [column]: [...ids] } });
      if (!rows.length) continue;
      await announce(tx, teamId, rows.map((r) => String(r.id)));
      for (const row of rows) await writeEvent(tx, { type: `${child.event}.deleted`, team_id: teamId, data: serialize(child, row) });
    }
  };
}
