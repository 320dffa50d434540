import type { Knex } from 'knex';
import type { Logger } from '@firewatch/logger';
import type { OnCallResourceDeps } from '../domain/on-call.deps.js';
import { createAlertUrgenciesRepository } from './alert-urgencies.repository.js';
import { createAlertsInRepository } from './alerts-in.repository.js';
import { createContactsRepository } from './contacts.repository.js';
import { createEscalationRepository } from './escalation.repository.js';
import { createOncallsRepository } from './oncalls.repository.js';
import { createUsersRepository } from './users.repository.js';
import { createSchedulingRepository } from './scheduling.repository.js';
import { createShiftInputsRepository } from './shift-inputs.repository.js';
import { createTargetsRepository } from './targets.repository.js';

/** The queries on-call's declarations need beyond the kit's own: urgencies, users, targets, scheduling (settings are app.ts's). */
export function createRecordsRepository(knex: Knex, logger?: Logger): Omit<OnCallResourceDeps, 'shiftReads' | 'paging'> {
  const users = createUsersRepository();
  return {
    urgencies: createAlertUrgenciesRepository(),
    alertsIn: createAlertsInRepository(),
    users,
    targets: createTargetsRepository(),
    shifts: createShiftInputsRepository(knex, users, logger),
    scheduling: createSchedulingRepository(),
    contacts: createContactsRepository(knex),
    escalation: createEscalationRepository(knex),
    oncalls: createOncallsRepository(knex),
  };
}
