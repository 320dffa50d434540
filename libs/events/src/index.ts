export {
  EVENTS_EXCHANGE,
  EVENTS_DLX,
  EVENT_TYPES,
  INTERNAL_EVENT_TYPES,
  isEventType,
  isInternalEventType,
  BUS_SERVICES,
  EVENT_FAMILIES,
  EVENT_CONSUMERS,
  EVENT_QUEUES,
  eventOwner,
  type BusService,
  type EventConsumer,
  type EventQueue,
} from './event-catalog.js';
export { PUBLISHING_SERVICES, defaultBrokerUser, brokerUserOf, publisherRefusal, type PublisherUsers } from './event-publishers.js';
export { brokerGrant, type BrokerGrant, type BrokerGrantOptions } from './broker-grants.js';
export {
  declareEventExchanges,
  declareEventQueue,
  provisionBrokerUser,
  deleteBrokerUser,
  type BrokerUserSpec,
  type EventQueueSpec,
  type EventTopologyOptions,
} from './broker-provisioning.js';
export { ensureExchange } from './exchange-topology.js';
export { consumerQueueTopology, type ConsumerQueueSpec, type ConsumerQueueTopology } from './consumer-queue.js';
export { isEventEnvelope, type EventEnvelope, type EventInput } from './event-envelope.js';
export { outboxMigration, OUTBOX_TABLE, OUTBOX_CHANNEL } from './outbox.migration.js';
export { onOutboxCommit } from './outbox-commits.js';
export { afterCommit } from './after-commit.js';
export { pipelinedTransaction, preparedName } from './pipelined-transaction.js';
export { writeEvent, writeEvents, writeEventsIf } from './outbox.writer.js';
export {
  createOutboxRelay,
  type OutboxRelay,
  type OutboxRelayObserver,
  type OutboxRelayOptions,
  type OutboxRelayStats,
} from './outbox.relay.js';
export { outboxBacklog, OUTBOX_BACKLOG_CAP, type OutboxBacklog } from './outbox.backlog.js';
export { createAmqpConsumer, type AmqpConsumer, type AmqpConsumerOptions } from './amqp-consumer.js';
export { createAmqpConnection, type AmqpConnection, type AmqpConnectionOptions } from './amqp-connection.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export type { ConsumeOptions, TransportConsumer, EventTransport, TransportPublisher, TransportPublisherHooks } from './event-transport.js';
export { createEventTransport, type EventTransportSettings } from './event-transport.factory.js';
export { provisionPgEvents, topicPattern, PG_EVENTS_CHANNEL, type PgEventQueue, type PgEventsProvisioning } from './pg-events.schema.js';
