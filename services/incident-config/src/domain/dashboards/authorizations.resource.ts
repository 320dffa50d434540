import { z } from 'zod';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { ValidationIssue } from '@firewatch/errors';
import { dashboardRights, dashboardVisibility, notGranted, type DashboardRight } from './dashboard-access.js';
import type { DashboardsDeps } from './dashboard-stores.js';

/** Each permission and the column holding it (one per permission, so visibility rules match it by equality). */
const COLUMN_OF = { read: 'can_read', update: 'can_update', authorize: 'can_authorize', destroy: 'can_destroy' } as const satisfies Record<
  string,
  DashboardRight
>;
const PERMISSIONS = Object.keys(COLUMN_OF) as (keyof typeof COLUMN_OF)[];

const permissions = z.array(z.enum(PERMISSIONS)).max(10);

const create = z.strictObject({
  authorizable_id: z.uuid().transform((id) => id.toLowerCase()),
  authorizable_type: z.enum(['Dashboard']),
  grantee_id: z.string().min(1).max(255),
  grantee_type: z.enum(['User', 'Team']),
  permissions,
});

/** The grantee must be a user id (users live in the auth service) or this team itself. */
function granteeIssues(attributes: Row, teamId: number): ValidationIssue[] {
  const id = String(attributes.grantee_id);
  const ok = attributes.grantee_type === 'Team' ? id === String(teamId) : /^[1-9]\d{0,15}$/.test(id);
  if (ok) return [];
  const detail = attributes.grantee_type === 'Team' ? 'A Team grant names this team.' : 'A User grant names a user id.';
  return [{ pointer: '/data/attributes/grantee_id', code: 'invalid_reference', detail }];
}

/**
 * Authorizations (docs/api-contract.md §1): grants of read, update, authorize and destroy on
 * a dashboard to a user or to the team. They take effect through the `dashboard_access`
 * views the dashboards and panels declarations read. Grants on a dashboard are seen by
 * those who see it and changed by those holding `authorize` on it (its owner, admins,
 * grantees of authorize); a dashboard the caller cannot see is a 422 at
 * `authorizable_id`, the same as one that does not exist.
 */
export const authorizations = defineResource<DashboardsDeps>({
  type: 'authorizations',
  path: '/v1/authorizations',
  table: 'authorizations',
  limit: { max: 200, per: 'authorizable_id', detail: 'A dashboard has at most {max} grants.' },
  event: 'authorization',
  permission: { scope: null, side: 'ir' },
  summary: { singular: 'authorization', plural: 'authorizations' },
  create,
  update: z.strictObject({ permissions }).partial(),
  attributes: ['authorizable_id', 'authorizable_type', 'grantee_id', 'grantee_type', 'permissions'],
  computed: { permissions: (row) => PERMISSIONS.filter((p) => row[COLUMN_OF[p]] === true) },
  filters: {
    authorizable_id: 'uuid',
    authorizable_type: 'string',
    grantee_id: 'string',
    grantee_type: 'string',
    created_at: 'date',
  },
  sorts: ['created_at', 'updated_at'],
  updateMethods: ['put'],
  unique: {
    authorizations_grantee_unique: {
      pointer: '/data/attributes/grantee_id',
      detail: 'This grantee already has a grant on this dashboard; change its permissions instead.',
    },
  },
  visibility: dashboardVisibility('authorization_access', 'authorization_id', {
    read: 'can_read',
    create: 'can_authorize',
    update: 'can_authorize',
    delete: 'can_authorize',
  }),
  hooks: {
    async validate(attributes, ctx) {
      const dashboardId = String(ctx.existing?.authorizable_id ?? attributes.authorizable_id);
      const rights = await dashboardRights(ctx.deps, ctx.tx, ctx.principal, dashboardId);
      if (!rights)
        return [{ pointer: '/data/attributes/authorizable_id', code: 'invalid_reference', detail: `No dashboard "${dashboardId}".` }];
      if (!rights.has('can_authorize')) throw notGranted('grant access to it');
      // A grantor hands on at most what it holds: `authorize` alone cannot become update or
      // destroy, for others or (through its own grant, or the team's) for itself.
      const beyond = ((attributes.permissions as (keyof typeof COLUMN_OF)[] | undefined) ?? []).filter((p) => !rights.has(COLUMN_OF[p]));
      if (beyond.length) throw notGranted(`grant ${beyond.join(', ')}, which you do not hold on it`);
      return ctx.existing ? [] : granteeIssues(attributes, ctx.principal.team_id);
    },
    toColumns({ permissions: listed, ...rest }) {
      if (!Array.isArray(listed)) return rest;
      return { ...rest, ...Object.fromEntries(PERMISSIONS.map((p) => [COLUMN_OF[p], listed.includes(p)])) };
    },
  },
});
