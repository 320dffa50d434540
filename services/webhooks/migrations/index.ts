import type { Migrations } from '@firewatch/db';
import { outboxMigration } from '@firewatch/events';
import { idempotencyMigration } from '@firewatch/http';
import * as endpoints from './20261201-0001-webhooks-endpoints.js';
import * as deliveries from './20261201-0002-webhooks-deliveries.js';
import * as deliveriesCreatedAt from './20261215-0003-webhooks-deliveries-created-at.js';
import * as adminReview from './20261220-0004-webhooks-endpoints-admin-review.js';
import * as claimTurn from './20261226-0006-webhooks-claim-turn.js';

/**
 * Every schema change of the webhooks database, applied in name order. The webhooks
 * service and the dispatcher share this database and both run these at start-up
 * (knex's migration lock makes concurrent runs safe).
 */
export const migrations: Migrations = {
  '20261201-0000-outbox': outboxMigration,
  '20261201-0001-webhooks-endpoints': endpoints,
  '20261201-0002-webhooks-deliveries': deliveries,
  '20261215-0003-webhooks-deliveries-created-at': deliveriesCreatedAt,
  '20261220-0004-webhooks-endpoints-admin-review': adminReview,
  '20261221-0005-idempotency-keys': idempotencyMigration,
  '20261226-0006-webhooks-claim-turn': claimTurn,
};
