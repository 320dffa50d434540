import { z } from 'zod';
import { isUuid, slugify, SLUG_PATTERN, type FilterSpec } from '@firewatch/resource-kit';
import type { ValidationIssue } from '@firewatch/errors';
import type { Named } from './communications.deps.js';

const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

// `{id}` is looked up as an id when it reads as a UUID, so a slug that does could never be found.
const UUID_SLUG = 'must not read as a UUID: `{id}` in a path would be taken for an id';

/** Writable fields the three resources share, as the reference types them. */
export const fields = {
  // The slug is made from the name: a name that slugifies to a UUID is refused for the same reason.
  name: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine((name) => !isUuid(slugify(name)), `${UUID_SLUG} (the slug made from this name would)`),
  slug: z
    .string()
    .min(1)
    .max(255)
    .regex(SLUG_PATTERN, 'must contain only a-z, 0-9, - and _')
    .refine((slug) => !isUuid(slug), UUID_SLUG),
  description: z.string().max(10_000).nullable(),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour such as #FF0000').nullable(),
  // null asks for the next free position, as leaving it out does on create.
  position: z.number().int().min(0).max(1_000_000).nullable(),
  /** Stored as PostgreSQL writes uuids, so it compares equal to the record's id. */
  id: z.uuid().transform((id) => id.toLowerCase()),
};

/** The list filters the reference gives types, stages and templates (docs/communications.md, "Operations"). */
export const listFilters: Record<string, FilterSpec> = {
  search: { kind: 'search', columns: ['name', 'description'] },
  name: 'string',
  slug: 'string',
  created_at: 'date',
};

export const listSorts = ['name', 'slug', 'position', 'created_at', 'updated_at'] as const;

/** The 422 of a type or stage that templates still use, naming them (docs/communications.md). */
export function inUse(noun: string, templates: Named[]): ValidationIssue[] {
  if (!templates.length) return [];
  const names = templates.map((t) => `"${t.name}" (${t.id})`).join(', ');
  return [
    {
      pointer: '/data',
      code: 'in_use',
      detail: `This ${noun} is used by ${templates.length} communications template(s): ${names}. Change or delete them first.`,
      members: { meta: { communications_template_ids: templates.map((t) => t.id) } },
    },
  ];
}
