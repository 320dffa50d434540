import type { Knex } from 'knex';
import { createGroupingStore } from './data/alert-grouping.repository.js';
import { createAlertIntakeRepository } from './data/alerts-in.repository.js';
import { createAlertGrouping } from './domain/alerts-in/alert-grouping.js';
import { createAlertIntake, type AlertIntake } from './domain/alerts-in/alert-intake.js';
import type { AlertPagingDeps } from './domain/alerts-in/alerts-in.deps.js';
import { registry } from './domain/registry.js';

/**
 * The one alert intake on its stores: the API, ingestion and heartbeat expiry all enter
 * alerts through it, so deduplication, grouping and paging are the same whichever way one
 * comes.
 */
export function alertIntakeOn(knex: Knex, paging?: AlertPagingDeps): AlertIntake {
  return createAlertIntake({
    store: createAlertIntakeRepository(knex),
    alerts: registry.get('alerts'),
    grouping: createAlertGrouping(createGroupingStore()),
    paging,
  });
}
