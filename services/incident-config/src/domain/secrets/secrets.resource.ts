import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { SecretBox } from '@firewatch/secret-box';
import { groupIssues, normalGroupId, OWNER_GROUPS_DESCRIPTION, type GroupsDeps } from '../groups/group-references.js';

/** What the secrets declaration needs from the service (the tenant's teams: owner_group_ids). */
export interface SecretsDeps extends GroupsDeps {
  secretBox: SecretBox;
}

/** What every response shows in place of the value: nothing of it, not even its length or last characters. */
export const REDACTED_SECRET = '********';

const KINDS = ['built_in', 'hashicorp_vault'] as const;
/** Where a value lives in a vault: for those who may write the secret only. */
const VAULT_ATTRIBUTES = ['external_vault_mount', 'external_vault_path', 'external_vault_version'] as const;
const vaultText = z.string().max(1_000).nullable();
// The reference types the version a string on create and an integer on update; both are taken.
const vaultVersion = z.union([
  z.number().int().min(0).max(1_000_000),
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number),
]);

const writable = {
  name: z.string().trim().min(1).max(255),
  secret: z.string().min(1).max(65_536),
  // Null means the default, as the reference's responses always carry a mount.
  external_vault_mount: vaultText.transform((v) => v ?? 'secret'),
  external_vault_path: vaultText,
  external_vault_version: vaultVersion.nullable().transform((v) => v ?? 0),
  // Teams' ids (GET /v1/teams), each a team of the tenant (the validate hook).
  owner_group_ids: z
    .array(z.string().min(1).max(255).transform(normalGroupId))
    .max(100)
    .nullable()
    .transform((v) => [...new Set(v ?? [])])
    .describe(OWNER_GROUPS_DESCRIPTION),
};

/**
 * Secrets (docs/api-contract.md §1): values workflows use. The value is sealed with the
 * service's secret box before it reaches the table and is never answered in clear, not
 * even by the create (the reference answers "the redacted secret"), nor carried by
 * events, which serialise the same redacted record. A group-scoped key sees only the
 * secrets of its groups. Only admins and members of a secret's owner groups write it
 * and see where it lives in a vault (docs/security.md). `kind` says where the value
 * lives; the spec's `external_vault_*` (the reference's `hashicorp_vault_*`) are kept as given.
 */
export const secrets = defineResource<SecretsDeps>({
  type: 'secrets',
  path: '/v1/secrets',
  table: 'secrets',
  event: 'secret',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'secret', plural: 'secrets' },
  create: z
    .strictObject({ ...writable, kind: z.enum(KINDS) })
    .partial()
    .required({ name: true, secret: true }),
  // The reference's update requires the name and cannot change the kind.
  update: z.strictObject(writable).partial().required({ name: true }),
  attributes: ['name', 'kind', 'secret', 'external_vault_mount', 'external_vault_path', 'external_vault_version', 'owner_group_ids'],
  jsonColumns: ['owner_group_ids'],
  ownerGroups: { column: 'owner_group_ids', writers: 'members' },
  writersOnly: VAULT_ATTRIBUTES,
  filters: { name: 'string', kind: 'string', created_at: 'date' },
  sorts: ['name', 'created_at', 'updated_at'],
  defaultSort: [{ field: 'created_at', direction: 'asc' }],
  updateMethods: ['put'],
  // Per owner set (migration 0070), so that a conflict is with a secret the writer sees. A
  // record-scoped key, which sees only what it lists, renames and moves none (the kit's 403).
  unique: {
    secrets_team_id_owner_set_name_unique: {
      pointer: '/data/attributes/name',
      detail: 'A secret with this name and these owner groups already exists.',
    },
  },
  computed: { secret: () => REDACTED_SECRET },
  attributeSchemas: {
    kind: { type: 'string', enum: [...KINDS] },
    secret: { type: 'string', enum: [REDACTED_SECRET], description: 'Always redacted: the value is never returned.' },
    // Stored as an integer and a list whatever form the write took.
    external_vault_version: { type: 'integer' },
    owner_group_ids: { type: 'array', items: { type: 'string' } },
  },
  hooks: {
    defaults: (attributes) => ({
      kind: 'built_in',
      external_vault_mount: 'secret',
      external_vault_version: 0,
      owner_group_ids: [],
      ...attributes,
    }),
    validate: (attributes, ctx) =>
      Array.isArray(attributes.owner_group_ids)
        ? groupIssues(ctx.deps, ctx.tx, ctx.principal.team_id, {
            attribute: 'owner_group_ids',
            pointer: '/data/attributes/owner_group_ids',
            ids: attributes.owner_group_ids as string[],
            held: ctx.existing?.owner_group_ids as string[] | undefined,
          })
        : [],
    toColumns(attributes, ctx) {
      const { secret: plain, ...columns } = attributes;
      return typeof plain === 'string' ? { ...columns, secret_ciphertext: ctx.deps.secretBox.seal(plain) } : columns;
    },
  },
});
