import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { AuthResourceDeps } from '../auth.deps.js';
import { bulkDeleteGroupsAction } from './groups-bulk-delete.action.js';
import { bulkUpsertGroupsAction } from './groups-bulk-upsert.action.js';
import { refuseGroupKeys } from './group-keys.rules.js';
import { groupUsersInclude } from './group-users.include.js';
import { assertMayChangeMembers, memberIssues, settleMembers } from './group-members.rules.js';
import {
  GROUP_ATTRIBUTE_SCHEMAS,
  GROUP_ATTRIBUTES,
  GROUP_FILTERS,
  GROUP_JSON_COLUMNS,
  GROUP_SORTS,
  groupDefaults,
  groupFields,
} from './groups.fields.js';

/**
 * Groups (docs/api-contract.md §1): the reference's teams inside a tenant, served at
 * `/v1/teams` with the JSON:API type `groups`. They are what API keys' `group_ids` and
 * records' `owner_group_ids` name; `group.*` events carry members and admins to the
 * services that keep a read model of them.
 */
export const groups = defineResource<AuthResourceDeps>({
  type: 'groups',
  path: '/v1/teams',
  table: 'groups',
  event: 'group',
  permission: { scope: 'ir.groups', side: 'ir' },
  summary: { singular: 'team', plural: 'teams' },
  create: z.strictObject(groupFields).partial().required({ name: true }),
  update: z.strictObject(groupFields).partial(),
  attributes: GROUP_ATTRIBUTES,
  attributeSchemas: GROUP_ATTRIBUTE_SCHEMAS,
  jsonColumns: GROUP_JSON_COLUMNS,
  // The gateway sends /v1/teams/properties to incident-config (the teams catalog), so no group's {id} could be that slug.
  slug: { from: 'name', reserved: ['properties'] },
  position: {},
  filters: GROUP_FILTERS,
  sorts: GROUP_SORTS,
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // The reference's other includes name on-call's records, which auth cannot read: accepted, adding nothing (docs/decisions.md, Groups).
  includes: { users: groupUsersInclude, schedules: async () => [], escalation_policies: async () => [] },
  updateMethods: ['put'],
  unique: {
    groups_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'A team with this name already exists.' },
    groups_team_id_external_id_unique: { pointer: '/data/attributes/external_id', detail: 'A team with this external_id already exists.' },
  },
  actions: [bulkUpsertGroupsAction, bulkDeleteGroupsAction],
  hooks: {
    prepare(attributes, ctx) {
      refuseGroupKeys(ctx.principal);
      return attributes;
    },
    defaults: groupDefaults,
    validate: memberIssues,
    toColumns(attributes, ctx) {
      const settled = settleMembers(attributes, ctx.existing);
      assertMayChangeMembers(settled, ctx.existing, ctx.principal);
      return settled;
    },
    async beforeRemove(ctx) {
      refuseGroupKeys(ctx.principal);
      await ctx.deps.groupKeys.dropGroup(ctx.tx, ctx.principal.team_id, String(ctx.existing?.id));
      return [];
    },
  },
});
