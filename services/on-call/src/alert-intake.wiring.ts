import type { Knex } from 'knex';
import { createGroupingStore } from './data/alert-grouping.repository.js';
import { createAlertIntakeRepository } from './data/alerts-in.repository.js';
import { createAlertGrouping } from './domain/alerts-in/alert-grouping.js';
import { createAlertIntake, type AlertIntake } from './domain/alerts-in/alert-intake.js';
import { registry } from './domain/registry.js';

/**
 * The one alert intake on its stores: the API, ingestion and heartbeat expiry all enter
 * alerts through it, so deduplication and grouping are the same whichever way one comes.
 */
export function alertIntakeOn(knex: Knex): AlertIntake {
  return createAlertIntake({
    store: createAlertIntakeRepository(knex),
    alerts: registry.get('alerts'),
    grouping: createAlertGrouping(createGroupingStore()),
  });
}
