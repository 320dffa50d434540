import { z } from 'zod';
import { defineResource } from '@firewatch/resource-kit';
import type { OnCallResourceDeps } from '../on-call.deps.js';
import { teamUserIssues } from '../users/team-users.check.js';
import { usersInclude } from '../users/users.include.js';
import { userId } from './schedules.resource.js';

/** A rotation's members take turns; more than this is no rota a person could follow. */
export const MAX_USERS_PER_ROTATION = 100;

const writable = {
  user_id: userId,
  position: z.number().int().min(0).max(1_000_000),
};

/**
 * Schedule rotation users (issue 12, the reference's schedule_rotation_users): the
 * members of a rotation, taking turns in ascending `position` (then in the order they
 * were added). A member is a user of the team, at most once per rotation (409). A user
 * deleted in auth leaves every rotation: the users read model deletes these rows, each
 * with its `schedule_rotation_user.deleted` event.
 */
export const scheduleRotationUsers = defineResource<OnCallResourceDeps>({
  type: 'schedule_rotation_users',
  path: '/v1/schedule_rotation_users',
  collections: [{ path: '/v1/schedule_rotations/{schedule_rotation_id}/schedule_rotation_users' }],
  parent: { resource: 'schedule_rotations', param: 'schedule_rotation_id', column: 'schedule_rotation_id' },
  table: 'schedule_rotation_users',
  event: 'schedule_rotation_user',
  permission: { scope: 'oc.schedules', side: 'oc' },
  summary: { singular: 'schedule rotation user', plural: 'schedule rotation users' },
  create: z.strictObject(writable).partial().required({ user_id: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['schedule_rotation_id', 'user_id', 'position'],
  relationships: {
    schedule_rotation: { type: 'schedule_rotations', column: 'schedule_rotation_id', resource: 'schedule_rotations' },
    user: { type: 'users', column: 'user_id' },
  },
  includes: { user: usersInclude('user_id') },
  attributeSchemas: { schedule_rotation_id: { type: 'string', format: 'uuid', description: 'The rotation' } },
  sorts: ['position', 'created_at', 'updated_at'],
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'created_at', direction: 'asc' },
  ],
  // A member added without a position takes the rotation's last turn.
  position: { per: 'schedule_rotation_id' },
  limit: { max: MAX_USERS_PER_ROTATION, per: 'schedule_rotation_id', detail: 'A rotation has at most {max} users.' },
  updateMethods: ['put'],
  unique: {
    schedule_rotation_users_rotation_user_unique: {
      pointer: '/data/attributes/user_id',
      detail: 'This user is already a member of the rotation.',
    },
  },
  hooks: {
    validate: (attributes, ctx) => teamUserIssues(ctx, { user_id: attributes.user_id }),
  },
});
