import type { Principal } from '@firewatch/auth';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row, Transaction } from './resource-shapes.js';
import type { ResourceRepository } from './resource.repository.js';
import { slugify, unlistedSlug } from './slug.js';

/**
 * The slugs a declaration's records get. A generated slug is the first free one of
 * `base`, `base-2`, ..., found by probing the team's records, so it tells its creator
 * which of them are taken. A record some of the team cannot see (`slug.hidden`) must not
 * take one of those, nor may a caller that does not see all records (a group key, where
 * `ownerGroups` hides other groups' records) probe them: both get an `unlistedSlug`.
 */
export function createSlugs(def: AnyResourceDefinition, repository: ResourceRepository) {
  const base = (row: Row) => slugify(String(row[def.slug!.from] ?? ''));
  const unlisted = (principal: Principal, row: Row) =>
    def.slug?.hidden?.(row) === true || (def.ownerGroups !== undefined && principal.group_ids !== null);

  /** A new record's attributes with its generated slug, unless they name one. */
  async function onCreate(tx: Transaction, principal: Principal, attributes: Row): Promise<Row> {
    if (!def.slug || typeof attributes.slug === 'string') return attributes;
    const slug = unlisted(principal, attributes)
      ? unlistedSlug(base(attributes))
      : await repository.freeSlug(tx, principal.team_id, base(attributes), def.slug.reserved);
    return { ...attributes, slug };
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

  return { onCreate, onUpdate };
}
