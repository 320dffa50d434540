export { EVENTS_EXCHANGE, EVENTS_DLX, EVENT_TYPES, INTERNAL_EVENT_TYPES, isEventType, isInternalEventType } from './event-catalog.js';
export { isEventEnvelope, type EventEnvelope, type EventInput } from './event-envelope.js';
export { outboxMigration, OUTBOX_TABLE, OUTBOX_CHANNEL } from './outbox.migration.js';
export { writeEvent, writeEvents } from './outbox.writer.js';
export { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions, type OutboxRelayStats } from './outbox.relay.js';
export { createAmqpConsumer, type AmqpConsumer, type AmqpConsumerOptions } from './amqp-consumer.js';
export { createAmqpConnection, type AmqpConnection, type AmqpConnectionOptions } from './amqp-connection.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
