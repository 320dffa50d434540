import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { MAX_WORK, SHIFT_READ_BOUNDS } from '../schedules/shifts.source.js';
import { usersInclude } from '../users/users.include.js';
import { oncallParams } from './oncalls.params.js';
import { ONCALL_BOUNDS } from './oncalls.entries.js';
import { listOncalls } from './oncalls.source.js';

const ONCALLS_DESCRIPTION = `Computed from the team's escalation policies, their paths (deferral paths left out) and levels: each level's users and team members for the whole window, and each schedule's final shifts overlapping it (as GET /v1/shifts computes them, overrides included; a level paging \`everyone\` lists every rotation member for the window). Escalating teams, services and chat channels list no one. \`since\` defaults to now and \`until\` to \`since\` (who is on call at that instant); at most 366 days apart. The schedules are read within GET /v1/shifts' bounds (${SHIFT_READ_BOUNDS.rotations} rotations, ${MAX_WORK} work units and more per rotation; a 400 beyond: narrow with \`filter[schedule_ids]\` or \`filter[escalation_policy_ids]\`). One request reads at most ${ONCALL_BOUNDS.paths} escalation paths and ${ONCALL_BOUNDS.levels} levels and answers at most ${ONCALL_BOUNDS.entries} entries (400 \`selection_too_large\` beyond: fewer policies, or a filter). Ids of another team's records give nothing.`;

/**
 * GET /v1/oncalls: who is on call through which policy, path, level and schedule in a
 * window (the reference's listOncalls), computed, never stored. Reading it needs the
 * escalation policies' scope: every entry is a policy level; a schedule's entries also
 * need the schedule to be one the caller may read.
 */
export const oncalls = defineResource<OnCallResourceDeps>({
  type: 'on_call_resources',
  path: '/v1/oncalls',
  permission: { scope: 'oc.escalation_policies', side: 'oc' },
  attributes: [
    'escalation_policy_id',
    'escalation_policy_name',
    'escalation_policy_path_id',
    'escalation_policy_path_name',
    'notification_type',
    'is_default_path',
    'escalation_level',
    'schedule_id',
    'schedule_name',
    'user_id',
    'starts_at',
    'ends_at',
  ],
  timestamps: false,
  attributeSchemas: {
    escalation_policy_id: { type: 'string' },
    escalation_policy_name: { type: 'string' },
    escalation_policy_path_id: { type: ['string', 'null'] },
    escalation_policy_path_name: { type: ['string', 'null'] },
    notification_type: { type: ['string', 'null'], enum: ['audible', 'quiet', null] },
    is_default_path: { type: ['boolean', 'null'] },
    escalation_level: { type: 'integer', description: "The level's position in its path." },
    schedule_id: { type: ['string', 'null'] },
    schedule_name: { type: ['string', 'null'] },
    user_id: { type: 'integer' },
    starts_at: { type: 'string', format: 'date-time' },
    ends_at: { type: 'string', format: 'date-time' },
  },
  relationships: {
    user: { type: 'users', column: 'user_id' },
    schedule: { type: 'schedules', column: 'schedule_id', resource: 'schedules' },
    escalation_policy: { type: 'escalation_policies', column: 'escalation_policy_id', resource: 'escalation_policies' },
  },
  includes: { user: usersInclude('user_id') },
  page: { defaultSize: 1000, maxSize: 1000 },
  source: { params: oncallParams, list: listOncalls, description: ONCALLS_DESCRIPTION },
  summary: { singular: 'on-call entry', plural: 'on-call entries' },
});
