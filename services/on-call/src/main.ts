import { createDb } from '@firewatch/db';
import { runKitService } from '@firewatch/kit-service';
import { notificationRecorder, observeKnexPool } from '@firewatch/metrics';
import { migrations } from '../migrations/index.js';
import { createOnCallApp } from './app.js';
import { configSchema } from './config.js';
import { createAlertRetriggersRepository } from './data/alert-retriggers.repository.js';
import { createShiftInputsRepository } from './data/shift-inputs.repository.js';
import { createShiftStartsRepository } from './data/shift-starts.repository.js';
import { createUsersRepository, usersReadModelEmpty } from './data/users.repository.js';
import { PERSONAL_DECLARATIONS, registry } from './domain/registry.js';
import { createAlertRetriggerJob } from './jobs/alert-retrigger.job.js';
import { heartbeatExpiryJob } from './jobs/heartbeat-expiry.wiring.js';
import { createShiftStartedJob } from './jobs/shift-started.job.js';
import { notificationsFrom } from './notifications.wiring.js';
import { alertPagingOn, attemptsDueWaker, pagingEngineOn, pagingJobsOn, pagingPortsOn } from './paging.wiring.js';
import { createEventsConsumer } from './queue/events.consumer.js';

await runKitService({
  name: 'on-call',
  schema: configSchema,
  migrations,
  async start({ config, logger, knex, relay, transport, metrics }) {
    const events = createEventsConsumer({
      knex,
      transport,
      logger,
      queue: config.USERS_QUEUE,
      publishers: config.AMQP_PUBLISHERS,
      memberships: registry.get('schedule_rotation_users'),
      personal: PERSONAL_DECLARATIONS.map(registry.get),
    });
    await events.start();
    if (await usersReadModelEmpty(knex))
      logger.info('no users known yet: users made before on-call first ran arrive after `firewatch users announce` (docs/on-call.md)');
    const shiftStarted = createShiftStartedJob({
      shifts: createShiftInputsRepository(knex, createUsersRepository()),
      store: createShiftStartsRepository(knex),
      logger,
      intervalMs: config.SHIFT_STARTED_INTERVAL_MS,
      catchUpMs: config.SHIFT_STARTED_CATCH_UP_HOURS * 3_600_000,
      lateAfterMs: config.SHIFT_STARTED_LATE_AFTER_MS,
      overlapMs: 60_000,
    });
    shiftStarted.start();
    // The send job's queries (and its action links) on a small pool of their own: a busy intake holding the service's pool does not queue them.
    const sendDb = createDb(config.DATABASE_URL, { poolMax: config.NOTIFICATION_DB_POOL_MAX });
    observeKnexPool(metrics, sendDb, 'notifications');
    const notifications = notificationsFrom(config, sendDb, logger);
    // One paging engine for the jobs that raise or re-trigger alerts and for the paging jobs (docs/paging.md).
    const engine = pagingEngineOn(knex, pagingPortsOn(logger), config.PAGING_LATE_AFTER_MS);
    const paging = alertPagingOn(knex, engine);
    const pagingJobs = pagingJobsOn(knex, {
      engine,
      notifier: notifications.notifier,
      logger,
      intervalMs: config.PAGING_INTERVAL_MS,
      sendIntervalMs: config.NOTIFICATION_SEND_INTERVAL_MS,
      sendLeaseMs: config.NOTIFICATION_SEND_LEASE_MS,
      recorder: notificationRecorder(metrics),
      sendKnex: sendDb,
    });
    pagingJobs.steps.start();
    pagingJobs.sends.start();
    const attemptsDue = attemptsDueWaker(() => pagingJobs.sends.wake());
    const heartbeatExpiry = heartbeatExpiryJob(knex, {
      paging,
      logger,
      intervalMs: config.HEARTBEAT_EXPIRY_INTERVAL_MS,
      lateAfterMs: config.HEARTBEAT_LATE_AFTER_MS,
    });
    heartbeatExpiry.start();
    const alertRetrigger = createAlertRetriggerJob({
      store: createAlertRetriggersRepository(knex),
      logger,
      intervalMs: config.ALERT_RETRIGGER_INTERVAL_MS,
      lateAfterMs: config.ALERT_RETRIGGER_LATE_AFTER_MS,
      paging,
    });
    alertRetrigger.start();
    return {
      app: (shell) => createOnCallApp({ ...shell, ingestBodyLimitBytes: config.INGEST_BODY_LIMIT_BYTES, notifications }),
      // The events consumer is on the broker too: one check for both connections.
      readiness: {
        broker: async () => {
          if (!relay.stats.connected || !events.connected) throw new Error('broker not connected');
        },
      },
      async stop() {
        await shiftStarted.stop();
        await heartbeatExpiry.stop();
        await alertRetrigger.stop();
        await pagingJobs.steps.stop();
        attemptsDue.stop();
        await pagingJobs.sends.stop();
        await events.stop();
        notifications.close();
        await sendDb.destroy();
      },
    };
  },
});
