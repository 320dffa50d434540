import { z } from 'zod';
import type { EventEnvelope } from '@firewatch/events';

/** One team (group) as a `group.*` event tells it, ready for the read model. */
export interface GroupChange {
  team_id: number;
  id: string;
  name: string;
  slug: string | null;
  /** auth's time of the group's last change: the read model keeps the newest. */
  updated_at: Date;
  /** The event's time, which orders two events of one `updated_at`. */
  occurred_at: Date;
  /** The time of deletion for `group.deleted`, else null. */
  deleted_at: Date | null;
}

const GROUP_EVENT_TYPES = ['group.created', 'group.updated', 'group.deleted'] as const;

// What auth sends: the group resource as its API answers it. Only what this service uses is read.
const groupData = z.object({
  id: z.uuid(),
  type: z.literal('groups'),
  attributes: z.object({
    name: z.string(),
    slug: z.string().nullish(),
    updated_at: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a time')
      .optional(),
  }),
});

/** True for the event types this read model consumes. */
export function isGroupEvent(type: string): boolean {
  return (GROUP_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The change an envelope carries, or a reason it cannot be applied (a malformed event,
 * which no redelivery would fix). The tenant is the envelope's; an event without the
 * group's `updated_at` is ordered by its own time.
 */
export function toGroupChange(envelope: EventEnvelope): GroupChange | { invalid: string } {
  if (!isGroupEvent(envelope.type)) return { invalid: `not a group event: ${envelope.type}` };
  // A tenant id PostgreSQL's integer cannot hold names no tenant, however often redelivered.
  if (envelope.team_id < 1 || envelope.team_id > 2_147_483_647) return { invalid: `team_id is not a tenant: ${envelope.team_id}` };
  const parsed = groupData.safeParse(envelope.data);
  if (!parsed.success) return { invalid: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const occurredAt = new Date(envelope.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return { invalid: `occurred_at is not a time: ${envelope.occurred_at}` };
  const { id, attributes } = parsed.data;
  return {
    team_id: envelope.team_id,
    id: id.toLowerCase(),
    name: attributes.name,
    slug: attributes.slug ?? null,
    updated_at: attributes.updated_at ? new Date(attributes.updated_at) : occurredAt,
    occurred_at: occurredAt,
    deleted_at: envelope.type === 'group.deleted' ? occurredAt : null,
  };
}
