import type { Migrations } from '@firewatch/db';
import { outboxMigration } from '@firewatch/events';
import { idempotencyMigration } from '@firewatch/http';
import * as typesStages from './20261123-0001-types-stages.js';
import * as templates from './20261123-0002-templates.js';
import * as listOrderIndexes from './20261126-0801-list-order-indexes.js';
import * as redundantIndexes from './20261231-0800-redundant-indexes.js';

/** Every schema change of communications, applied in name order. */
export const migrations: Migrations = {
  '20261123-0000-outbox': outboxMigration,
  '20261123-0001-types-stages': typesStages,
  '20261123-0002-templates': templates,
  '20261125-0003-idempotency-keys': idempotencyMigration,
  '20261126-0801-list-order-indexes': listOrderIndexes,
  '20261231-0800-redundant-indexes': redundantIndexes,
};
