import { ForbiddenError } from '@firewatch/errors';
import type { Principal } from '@firewatch/auth';

/**
 * Groups are what a group key is drawn with, so such a key reads the team's groups but
 * creates, changes and deletes none (docs/security.md, Group keys): otherwise it could
 * delete another group and change what records that group's owners and keys reach.
 */
export function refuseGroupKeys(principal: Principal): void {
  if (principal.group_ids !== null) {
    throw new ForbiddenError('A group-scoped key may read groups but not create, change or delete them.', { code: 'group_scoped' });
  }
}
