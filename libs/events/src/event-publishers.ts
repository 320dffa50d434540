import { BUS_SERVICES, EVENT_FAMILIES, eventOwner, type BusService } from './event-catalog.js';

/** The services that publish events (every bus service but the dispatcher). */
export const PUBLISHING_SERVICES: readonly BusService[] = Object.freeze(BUS_SERVICES.filter((s) => EVENT_FAMILIES[s].length > 0));

/** The broker user each publishing service connects as; consumers judge messages by it. */
export type PublisherUsers = Readonly<Partial<Record<BusService, string>>>;

/** The broker user a service connects as unless configured otherwise. */
export function defaultBrokerUser(service: BusService): string {
  return `firewatch-${service}`;
}

/** The user a connection to `amqpUrl` authenticates as (amqplib's default is `guest`). */
export function brokerUserOf(amqpUrl: string): string {
  return decodeURIComponent(new URL(amqpUrl).username) || 'guest';
}

/**
 * Why a message may not be taken as an event of `type` (what its body claims), or null
 * when it may. The broker has held its `user-id` to the publishing connection's user;
 * that user must be the one the type's owner connects as. The body is judged, not the
 * routing key: a publisher may route under its own families only, but could claim
 * another's type in the body.
 */
export function publisherRefusal(userId: string | undefined, type: string, publishers: PublisherUsers): string | null {
  if (!userId) return 'no user-id';
  const owner = eventOwner(type);
  if (!owner) return 'type outside the catalog';
  if (publishers[owner] !== userId) return `published by ${userId}, not by ${owner}`;
  return null;
}
