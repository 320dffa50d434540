import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import { TARGET_TYPES } from '../targets/targets.deps.js';
import { MAX_CONDITIONS } from '../matching/index.js';
import {
  MAX_CONDITION_GROUPS,
  MAX_DESTINATIONS,
  MAX_RULE_POSITION,
  MAX_RULES,
  rulesInput,
  type StoredRule,
} from './alert-routes.schemas.js';
import { routeConditionInput } from './routing.conditions.js';

/**
 * An update's `rules` (docs/paging.md, "Alert routing"). PUT sends the whole set. PATCH
 * merges as the reference's nested attributes do (its `id` is "required for updating or
 * deleting existing rules", `_destroy` "deletes this rule"): an entry with the id of one
 * of the route's rules changes only the fields it sends, or drops the rule; one without an
 * id adds a rule; the rules it does not name stay. A sent rule's `destinations` and
 * `condition_groups`, and a sent group's `conditions`, merge the same way. The result is
 * judged as a whole set by `rulesInput`, each issue pointed at the entry that was sent.
 */

type Entry = Record<string, unknown> & { id?: string; _destroy?: boolean };
type Path = readonly PropertyKey[];

const BASE = '/data/attributes/rules';
/** The lists an entry of each list holds, merged with it. */
const LISTS: Record<string, readonly string[]> = { rules: ['destinations', 'condition_groups'], condition_groups: ['conditions'] };

const dropped = { id: z.uuid().optional(), _destroy: z.boolean().optional() };
const position = z.number().int().min(0).max(MAX_RULE_POSITION).optional();

/** The entries as sent: each field checked, none required (a PATCH entry sends what it changes). */
export const ruleEntriesInput = z
  .array(
    z.strictObject({
      ...dropped,
      name: z.string().trim().min(1).max(255).optional(),
      position,
      fallback_rule: z.boolean().optional(),
      destinations: z
        .array(z.strictObject({ ...dropped, target_type: z.enum(TARGET_TYPES).optional(), target_id: z.uuid().optional() }))
        .max(MAX_DESTINATIONS)
        .optional(),
      condition_groups: z
        .array(z.strictObject({ ...dropped, position, conditions: z.array(routeConditionInput.partial()).max(MAX_CONDITIONS).optional() }))
        .max(MAX_CONDITION_GROUPS)
        .optional(),
    }),
  )
  .max(MAX_RULES);

/** Which sent entry each element of the result came from (its index in its list); elements kept untouched have none. */
type Origins = WeakMap<object, number>;

const idOf = (e: Entry) => String(e.id).toLowerCase();

/** A sent entry (and its lists) as the result holds it: `_destroy: true` entries left out. */
function fresh(list: string, entry: Entry, index: number, origins: Origins): Entry {
  const { _destroy, ...copy } = entry;
  for (const key of LISTS[list] ?? [])
    if (Array.isArray(entry[key]))
      copy[key] = (entry[key] as Entry[]).flatMap((e, i) => (e._destroy === true ? [] : [fresh(key, e, i, origins)]));
  origins.set(copy, index);
  return copy;
}

/** `sent` merged into `current` by id: current elements in their order, changed or dropped, then the added ones. */
function merge(
  list: string,
  current: readonly Entry[],
  sent: readonly Entry[],
  pointer: string,
  issues: ValidationIssue[],
  origins: Origins,
): Entry[] {
  const byId = new Map(current.map((c) => [idOf(c), c]));
  const changed = new Map<string, Entry | null>();
  const added: Entry[] = [];
  sent.forEach((entry, i) => {
    if (entry.id === undefined) {
      if (entry._destroy !== true) added.push(fresh(list, entry, i, origins));
      return;
    }
    const held = byId.get(idOf(entry));
    if (!held || changed.has(idOf(entry))) {
      const detail = held ? `names "${idOf(entry)}" a second time.` : `No entry with id "${idOf(entry)}" belongs to this record.`;
      issues.push({ pointer: `${pointer}/${i}/id`, code: 'unknown_child', detail });
      return;
    }
    if (entry._destroy === true) return void changed.set(idOf(entry), null);
    const { _destroy, ...fields } = entry;
    const next: Entry = { ...held, ...fields };
    for (const key of LISTS[list] ?? [])
      if (Array.isArray(entry[key]))
        next[key] = merge(key, (held[key] as Entry[] | undefined) ?? [], entry[key] as Entry[], `${pointer}/${i}/${key}`, issues, origins);
    origins.set(next, i);
    changed.set(idOf(entry), next);
  });
  // A dropped element is null among the changed ones.
  const kept = current.flatMap((c): Entry[] => {
    const next = changed.has(idOf(c)) ? changed.get(idOf(c)) : c;
    return next ? [next] : [];
  });
  return [...kept, ...added];
}

/** The rule ids a PUT names must be the route's (each once); it sends the whole set. */
function replace(current: readonly Entry[], sent: readonly Entry[], issues: ValidationIssue[], origins: Origins): Entry[] {
  const ids = new Set(current.map(idOf));
  const seen = new Set<string>();
  sent.forEach((entry, i) => {
    if (entry.id === undefined) return;
    const detail = !ids.has(idOf(entry))
      ? `No entry with id "${idOf(entry)}" belongs to this record.`
      : `names "${idOf(entry)}" a second time.`;
    if (!ids.has(idOf(entry)) || seen.has(idOf(entry))) issues.push({ pointer: `${BASE}/${i}/id`, code: 'unknown_child', detail });
    seen.add(idOf(entry));
  });
  return sent.flatMap((e, i) => (e._destroy === true ? [] : [fresh('rules', e, i, origins)]));
}

/** Where a path into the result lies in what was sent: at the list, for an element the write kept untouched. */
function sentPointer(rules: readonly Entry[], path: Path, origins: Origins): string {
  let at = BASE;
  let node: unknown = rules;
  for (const step of path) {
    if (Array.isArray(node)) {
      const element: unknown = node[Number(step)];
      const object = element !== null && typeof element === 'object';
      const index = object ? origins.get(element) : Number(step);
      if (index === undefined) return at;
      at += `/${index}`;
      node = element;
    } else {
      at += `/${String(step)}`;
      node = node && typeof node === 'object' ? (node as Row)[String(step)] : undefined;
    }
  }
  return at;
}

const pointers = new WeakMap<readonly StoredRule[], (path: Path) => string>();

/**
 * Where the validate hook reports an issue of `rules` (a path into them): the entry sent
 * for it. Rules an update made are kept with their pointers; a create's are as sent.
 */
export function rulesPointer(rules: readonly StoredRule[]): (path: Path) => string {
  return pointers.get(rules) ?? ((path) => [BASE, ...path.map(String)].join('/'));
}

/** The route's whole set of rules after an update sending `sent` (PATCH merges, PUT replaces); 422 as any write's. */
export function updatedRules(current: readonly Row[], sent: readonly Entry[], method: 'put' | 'patch' | undefined): StoredRule[] {
  const issues: ValidationIssue[] = [];
  const origins: Origins = new WeakMap();
  const held = current.map(({ id, name, position, fallback_rule, destinations, condition_groups }) => ({
    id: String(id),
    name,
    position,
    fallback_rule,
    destinations,
    condition_groups,
  }));
  const rules = method === 'patch' ? merge('rules', held, sent, BASE, issues, origins) : replace(held, sent, issues, origins);
  if (issues.length) throw new ValidationError(issues);
  const parsed = rulesInput.safeParse(rules);
  if (!parsed.success)
    throw new ValidationError(
      parsed.error.issues.map((issue) => {
        const pointer = sentPointer(rules, issue.path, origins);
        return { pointer, code: issue.code, detail: `${pointer.slice('/data/attributes/'.length).replace(/\//g, '.')}: ${issue.message}` };
      }),
    );
  pointers.set(parsed.data, (path) => sentPointer(rules, path, origins));
  return parsed.data;
}
