import type { Principal } from '@firewatch/auth';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row, Transaction } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import { slugCandidate, slugify, unlistedSlug } from './slug.js';

/**
 * The slugs a declaration's records get. A generated slug is the first free one of
 * `base`, `base-2`, ..., found by probing the team's records, so it tells its creator
 * which of them are taken. A record some of the team cannot see (`slug.hidden`) must not
 * take one of those, nor may a caller that does not see all records (a group key, where
 * `ownerGroups` hides other groups' records) probe them: both get an `unlistedSlug`.
 * A new name's `base` is nearly always free, so it is tried by the insert itself and the
 * team's records are probed only when it is taken.
 */
export function createSlugs(def: AnyResourceDefinition, repository: ResourceRepository) {
  const base = (row: Row) => slugify(String(row[def.slug!.from] ?? ''));
  const unlisted = (principal: Principal, row: Row) =>
    def.slug?.hidden?.(row) === true || (def.ownerGroups !== undefined && principal.group_ids !== null);

  /**
   * A new record's attributes with its slug, unless they name one, and whether that slug
   * is `tentative`: a listed record's first candidate, `base`, which the insert confirms
   * (`insert` below) instead of a probe before it (a round trip per create).
   */
  function onCreate(principal: Principal, attributes: Row): { attributes: Row; tentative: boolean } {
    if (!def.slug || typeof attributes.slug === 'string') return { attributes, tentative: false };
    if (unlisted(principal, attributes)) return { attributes: { ...attributes, slug: unlistedSlug(base(attributes)) }, tentative: false };
    return { attributes: { ...attributes, slug: slugCandidate(base(attributes), 1) }, tentative: true };
  }

  /**
   * Inserts a new record's `row`. A tentative slug is inserted unless a unique key refuses
   * the row (ON CONFLICT DO NOTHING, which waits for a concurrent insert of the same slug
   * to settle); then the first free slug of the sequence is probed, as without one, and
   * inserted, so a conflict on any other key is reported as it always was. Returns the row
   * as stored (its slug is the record's).
   */
  async function insert(tx: Transaction, principal: Principal, row: Row, tentative: boolean): Promise<Row> {
    if (!tentative) return repository.insert(tx, row);
    // A reserved candidate (a team named "Properties") goes straight to the probe, which skips it.
    const inserted = def.slug!.reserved?.includes(String(row.slug)) ? undefined : await repository.insertUnlessConflict(tx, row);
    if (inserted) return inserted;
    const slug = await repository.freeSlug(tx, principal.team_id, String(row.slug), def.slug!.reserved);
    return repository.insert(tx, { ...row, slug });
  }

  /**
   * An update's attributes, with an unlisted slug when they make the record hidden (an
   * incident made private): left on the sequence, its slug would tell later creates that
   * the record still exists.
   */
  function onUpdate(existing: Row, attributes: Row): Row {
    const hidden = def.slug?.hidden;
    if (!hidden || 'slug' in attributes) return attributes;
    const after = { ...existing, ...attributes };
    return !hidden(existing) && hidden(after) ? { ...attributes, slug: unlistedSlug(base(after)) } : attributes;
  }

  return { onCreate, insert, onUpdate };
}
