import { writeEvent, writeEvents } from '@firewatch/events';
import type { EventOutbox } from '../domain/event-outbox.js';

/** The one place this service writes events. */
export function createEventOutbox(): EventOutbox {
  return {
    async write(tx, event) {
      await writeEvent(tx, event);
    },
    async writeAll(tx, events) {
      await writeEvents(tx, events);
    },
  };
}
