import type { Principal } from '@firewatch/auth';
import { ForbiddenError } from '@firewatch/errors';
import type { AnyResourceDefinition } from './resource-definition.js';
import type { Row } from './resource-shapes.js';

const ATTRIBUTE = /^\/data\/attributes\/([^/]+)/;

/** Lists compare as sets (owner groups); anything else by value. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));
  return a === b;
}

/**
 * The `unique` entries that compare records with each other, by constraint, with the
 * attribute each names; those of the record's own children (two stages of one template)
 * conflict within the record and are left out.
 */
export function uniqueAcrossRecords(def: AnyResourceDefinition): [constraint: string, attribute: string][] {
  const children = new Set(Object.entries(def.children ?? {}).flatMap(([attribute, spec]) => [attribute, spec.input ?? attribute]));
  return Object.entries(def.unique ?? {}).flatMap(([constraint, u]) => {
    const attribute = ATTRIBUTE.exec(u.pointer)?.[1];
    return attribute === undefined || children.has(attribute) ? [] : [[constraint, attribute] as [string, string]];
  });
}

/** Attributes whose value a unique key holds: the `unique` ones, the slug, and where `ownerGroups` makes those keys per owner set, the owner groups. */
function keyedAttributes(def: AnyResourceDefinition): string[] {
  const unique = uniqueAcrossRecords(def).map(([, attribute]) => attribute);
  return [...new Set([...unique, ...(def.slug ? ['slug'] : []), ...(def.ownerGroups && unique.length ? [def.ownerGroups.column] : [])])];
}

/**
 * A value a unique key holds tells of the record holding it: a write choosing it gets a
 * 409 even when that record is hidden from the writer. So callers who see only part of
 * the team's records choose no such value they cannot judge (security issue 19, finding 5):
 * - a record-scoped key changes none of them on a record it lists (403 `record_scoped`),
 *   conflict or not: every other record may be one it does not list;
 * - a group key chooses no slug where `ownerGroups` hides other groups' records (403
 *   `group_scoped`): slugs are unique per team, whereas such a declaration's `unique`
 *   keys are per owner set (`assertDeclaration`), so their conflicts are with records
 *   of a set holding one of the key's groups, which it sees. Its creates get an
 *   unlisted slug instead.
 * Refused before anything is looked up, so the answer is the same whether the value is taken.
 */
export function createUniqueKeyGuard(def: AnyResourceDefinition) {
  const keyed = keyedAttributes(def);
  const slugHidesGroups = def.slug !== undefined && def.ownerGroups !== undefined;

  /** `existing`: the record an update changes; undefined on create. */
  function check(principal: Principal, attributes: Row, existing?: Row): void {
    const changes = (attribute: string) => attribute in attributes && (!existing || !same(attributes[attribute], existing[attribute]));
    if (principal.record_ids !== null && existing) {
      const changed = keyed.filter(changes);
      if (changed.length) {
        throw new ForbiddenError(
          `A record-scoped key may not change ${changed.join(', ')}: a record it does not list may hold the value.`,
          { code: 'record_scoped' },
        );
      }
    }
    if (slugHidesGroups && principal.group_ids !== null && changes('slug')) {
      throw new ForbiddenError(
        "A group-scoped key may not choose a slug: another group's record may hold it. Its records get an unlisted slug.",
        {
          code: 'group_scoped',
        },
      );
    }
  }

  return { check };
}
