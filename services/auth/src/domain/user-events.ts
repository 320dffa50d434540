import type { UserRow } from './users.store.js';
import { toUserResource } from './identity.presenter.js';

export type UserAction = 'created' | 'updated' | 'deleted';

/**
 * The `user.*` event of a change (an internal event type: other services' read models,
 * never webhooks): the user as the API shows it, without its password hash, and its
 * `version` in `meta`, by which consumers drop repeated and out-of-order deliveries.
 */
export function userEvent(action: UserAction, row: UserRow) {
  return {
    type: `user.${action}`,
    team_id: row.team_id,
    data: { ...toUserResource(row), meta: { version: row.version } },
  };
}
