import { z } from 'zod';
import { defineResource, type HookContext, type Row } from '@firewatch/resource-kit';
import { panelsInclude } from './panels.include.js';
import { dashboardRights, dashboardVisibility, notGranted, seesAllDashboards } from './dashboard-access.js';
import { duplicateDashboardAction } from './duplicate-dashboard.action.js';
import { setDefaultDashboardAction } from './set-default-dashboard.action.js';
import type { DashboardsDeps } from './dashboard-stores.js';

/** The colours the reference's enum lists; any hex colour code is accepted (docs/decisions.md, Defaults). */
const DASHBOARD_COLORS = ['#FCF2CF', '#D7F5E1', '#E9E2FF', '#FAE6E8', '#FAEEE6'] as const;
const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour code, #RGB or #RRGGBB')
  .describe(`A hex colour code (#RGB or #RRGGBB); the reference lists ${DASHBOARD_COLORS.join(', ')}.`);

/** `<ISO 8601 timestamp> to <ISO 8601 timestamp>`, the form the reference's panel `range` takes. */
const range = z
  .string()
  .max(200)
  .refine((value) => {
    const parts = value.split(' to ');
    return parts.length === 2 && parts.every((p) => /^\d{4}-\d{2}-\d{2}T/.test(p) && !Number.isNaN(Date.parse(p)));
  }, 'must be two ISO 8601 timestamps joined by " to "');

const writable = {
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullable(),
  owner: z.enum(['user', 'team']),
  public: z.boolean(),
  range: range.nullable(),
  period: z.enum(['day', 'week', 'month']).nullable(),
  auto_refresh: z.boolean(),
  color: hexColor.nullable(),
  icon: z.string().max(255),
};

/**
 * Who a dashboard belongs to and who sees it (`owner`, `public`) is access, not content:
 * an `update` grant does not reach it. Changing it takes `authorize` on the dashboard (its
 * owner, admins, grantees of authorize), and no change gives anyone a right its changer
 * lacks: `public` gives the team `read`, which the changer holds, but handing a user's
 * dashboard to the team gives everyone of it every right, and takes the dashboard from
 * its owner for good, so that is for the owner or an admin; taking a team dashboard for
 * oneself, which hides it from the team, takes an admin.
 */
async function mayChangeAccess(attributes: Row, existing: Row, ctx: HookContext<DashboardsDeps>): Promise<void> {
  const changes = (key: string) => key in attributes && attributes[key] !== existing[key];
  if (!changes('owner') && !changes('public')) return;
  const admin = seesAllDashboards(ctx.principal);
  if (existing.owner === 'team' && attributes.owner === 'user' && !admin) throw notGranted('take it from the team');
  const rights = await dashboardRights(ctx.deps, ctx.tx, ctx.principal, String(existing.id));
  if (!rights?.has('can_authorize')) throw notGranted('change its owner or who sees it');
  const owns = ctx.principal.user_id !== null && ctx.principal.user_id === existing.user_id;
  if (existing.owner === 'user' && attributes.owner === 'team' && !admin && !owns)
    throw notGranted('hand it to the team, which only its owner or an admin may');
}

/**
 * Dashboards (docs/api-contract.md §1). A user-owned one belongs to the principal's user
 * who created it (`user_id`), so a team-wide API key, acting for no user, cannot create
 * one (422 at `owner`). Who sees and changes which dashboard: dashboard-access.ts beside it.
 */
export const dashboards = defineResource<DashboardsDeps>({
  type: 'dashboards',
  path: '/v1/dashboards',
  table: 'dashboards',
  limit: { max: 1000, detail: 'A team holds at most {max} dashboards.' },
  event: 'dashboard',
  permission: { scope: null, side: 'ir' },
  // Its panels and grants go with it (ON DELETE CASCADE), each announced.
  cascades: [
    { resource: 'dashboard_panels', column: 'dashboard_id' },
    { resource: 'authorizations', column: 'authorizable_id' },
  ],
  summary: { singular: 'dashboard', plural: 'dashboards' },
  create: z.strictObject(writable).partial().required({ name: true, owner: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['team_id', 'user_id', 'name', 'slug', 'description', 'owner', 'public', 'range', 'period', 'auto_refresh', 'color', 'icon'],
  attributeSchemas: {
    team_id: { type: 'integer', description: 'The dashboard team' },
    user_id: { type: ['integer', 'null'], description: 'The dashboard user owner if owner is of type user' },
    slug: { type: 'string', description: '`{id}` in paths accepts it' },
  },
  // A user's dashboard the team does not see has an unlisted slug: no create may tell that one holds a name.
  slug: { from: 'name', hidden: (row) => row.owner === 'user' && row.public !== true },
  sorts: ['name', 'created_at', 'updated_at'],
  updateMethods: ['put'],
  visibility: dashboardVisibility('dashboard_access', 'dashboard_id', {
    read: 'can_read',
    create: 'can_read',
    update: 'can_update',
    delete: 'can_destroy',
  }),
  includes: { panels: panelsInclude },
  actions: [duplicateDashboardAction, setDefaultDashboardAction],
  hooks: {
    defaults: (attributes) => ({ public: false, auto_refresh: false, icon: '', ...attributes }),
    async validate(attributes, ctx) {
      const becomesUsers = attributes.owner === 'user' && ctx.existing?.owner !== 'user';
      if (becomesUsers && ctx.principal.user_id === null) {
        return [
          {
            pointer: '/data/attributes/owner',
            code: 'no_user',
            detail: 'This credential acts for no user, so it cannot own a dashboard; use owner "team".',
          },
        ];
      }
      if (ctx.existing) await mayChangeAccess(attributes, ctx.existing, ctx);
      return [];
    },
    toColumns(attributes, ctx) {
      if (attributes.owner === 'team') return { ...attributes, user_id: null };
      // A dashboard becoming user-owned becomes its changer's; one already so stays its owner's.
      if (attributes.owner === 'user' && ctx.existing?.owner !== 'user') return { ...attributes, user_id: ctx.principal.user_id };
      return attributes;
    },
  },
});
