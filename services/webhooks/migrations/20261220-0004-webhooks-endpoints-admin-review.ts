import type { Knex } from 'knex';

/**
 * Webhooks became admin-only (security issue 19, finding 1). Before, any credential of
 * a team could make an endpoint, nothing recorded which, and an endpoint receives every
 * event it subscribes to: private incidents, API key metadata, other groups' secrets. So
 * every enabled endpoint is disabled here until an admin has looked at it and sets
 * `enabled: true` again (which clears this reason). Its pending deliveries wait until
 * then; no event announces the change (docs/webhooks.md, "Endpoints made before").
 */
export const ADMIN_REVIEW_REASON = 'admin review: made before webhooks were for admins only; enable it again once reviewed';

export async function up(knex: Knex): Promise<void> {
  await knex('webhooks_endpoints')
    .where({ enabled: true })
    .update({ enabled: false, disabled_reason: ADMIN_REVIEW_REASON, updated_at: knex.fn.now() });
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhooks_endpoints')
    .where({ disabled_reason: ADMIN_REVIEW_REASON })
    .update({ enabled: true, disabled_reason: null, updated_at: knex.fn.now() });
}
