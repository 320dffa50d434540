import { authorize } from '@firewatch/auth';
import { defineResource, type Row } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { usersInclude } from '../users/users.include.js';
import { shiftParams } from './shifts.params.js';
import { listShifts, MAX_WORK, SHIFT_READ_BOUNDS, WORK_PER_ROTATION } from './shifts.source.js';

const ids = (rows: Row[], column: string) => [
  ...new Set(rows.map((r) => r[column]).filter((v): v is number | string => v !== null && v !== undefined)),
];

const count = (n: number) => n.toLocaleString('en-US');
const SHIFTS_DESCRIPTION = `Computed from the schedules' rotations and override shifts, never stored. One request reads at most ${count(SHIFT_READ_BOUNDS.rotations)} rotations and ${count(SHIFT_READ_BOUNDS.memberSlots)} member slots (members and the slots of deleted users) of the schedules asked for (400 \`selection_too_large\` beyond: name fewer with \`schedule_ids[]\`), and does at most ${count(MAX_WORK)} work units plus ${WORK_PER_ROTATION} a rotation (400 \`range_too_large\` beyond: a shorter range or fewer schedules); \`from\`..\`to\` spans at most 366 days.`;

/**
 * GET /v1/shifts (and GET /v1/schedules/{id}/shifts): the final shifts of the team's schedules in from..to, computed from
 * their rotations and override shifts (src/domain/shifts), never stored. `user` is the
 * reference's deprecated name of `assignee`; both are served. No shadow shifts exist yet,
 * so `shift_shadow` includes nothing.
 */
export const shifts = defineResource<OnCallResourceDeps>({
  type: 'shifts',
  path: '/v1/shifts',
  // The reference's GET /v1/schedules/{id}/shifts: one schedule's shifts (404 when the caller cannot see it).
  collections: [{ path: '/v1/shifts' }, { path: '/v1/schedules/{id}/shifts' }],
  parent: { resource: 'schedules', param: 'id', column: 'schedule_id' },
  permission: { scope: 'oc.schedules', side: 'oc' },
  attributes: ['schedule_id', 'rotation_id', 'starts_at', 'ends_at', 'is_override', 'is_shadow', 'user_id'],
  timestamps: false,
  attributeSchemas: {
    schedule_id: { type: 'string' },
    rotation_id: { type: ['string', 'null'] },
    starts_at: { type: 'string', format: 'date-time' },
    ends_at: { type: 'string', format: 'date-time' },
    is_override: { type: 'boolean' },
    is_shadow: { type: 'boolean' },
    user_id: { type: ['integer', 'null'] },
  },
  relationships: {
    shift_override: { type: 'shift_overrides', column: 'override_id' },
    user: { type: 'users', column: 'user_id' },
    assignee: { type: 'users', column: 'user_id' },
  },
  includes: {
    // The reference's shift_override: the override shift (its id) and who created it. A
    // read of override shifts, so it needs their permission, as GET /v1/override_shifts does.
    shift_override: async (rows, { principal, deps, permissionOf }) => {
      authorize(principal, { ...permissionOf('override_shifts'), action: 'read' });
      // A record-scoped key reads the override shifts it lists, here as through their own path.
      const listed = ids(rows, 'override_id')
        .map(String)
        .filter((id) => principal.record_ids === null || principal.record_ids.includes(id));
      return (await deps.shifts.overrideRecords(principal.team_id, listed)).map((o) => ({
        id: o.id,
        type: 'shift_overrides',
        attributes: {
          shift_id: o.id,
          created_by_user_id: o.created_by_user_id,
          created_at: o.created_at.toISOString(),
          updated_at: o.updated_at.toISOString(),
        },
      }));
    },
    user: usersInclude('user_id'),
    assignee: usersInclude('user_id'),
    shift_shadow: async () => [],
  },
  page: { defaultSize: 50, maxSize: 1000 },
  source: { params: shiftParams, list: listShifts, description: SHIFTS_DESCRIPTION },
  summary: { singular: 'shift', plural: 'shifts' },
});
