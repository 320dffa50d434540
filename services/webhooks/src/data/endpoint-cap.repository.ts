import type { Knex } from 'knex';
import { lockForTransaction } from '@firewatch/db';

/**
 * Counts a team's endpoints inside the create's transaction, after taking the team's
 * advisory lock: concurrent creates of one team take turns until each commits, so
 * "count, then insert if under the cap" cannot let two creates past the last free slot.
 */
export function createEndpointCounter(): (tx: unknown, teamId: number) => Promise<number> {
  return async (tx, teamId) => {
    const trx = tx as Knex.Transaction;
    await lockForTransaction(trx, 'webhooks_endpoints.per_team', teamId);
    const [{ count }] = (await trx('webhooks_endpoints').where({ team_id: teamId }).count({ count: '*' })) as { count: string }[];
    return Number(count);
  };
}
