import { z } from 'zod';
import type { EventEnvelope } from '@firewatch/events';

/** One user's state as a `user.*` event tells it, ready for the read model. */
export interface UserChange {
  user_id: number;
  team_id: number;
  name: string;
  email: string;
  role: string;
  on_call_role: string;
  is_service_account: boolean;
  /** The user's IANA time zone, when auth's event tells it (the paging engine's local time); else null. */
  time_zone: string | null;
  /** auth's counter of the user's changes: the read model keeps the highest. */
  version: number;
  occurred_at: Date;
  /** The time of deletion for `user.deleted`, else null. */
  deleted_at: Date | null;
}

const USER_EVENT_TYPES = ['user.created', 'user.updated', 'user.deleted'] as const;

// What auth's user-events.ts sends: the user resource with its version in meta.
const userData = z.object({
  // auth's integer ids; anything else could never be stored, however often redelivered.
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/)
    .refine((id) => Number(id) <= 2_147_483_647, 'is not a user id'),
  type: z.literal('users'),
  attributes: z.object({
    name: z.string(),
    email: z.string(),
    role: z.string(),
    on_call_role: z.string(),
    is_service_account: z.boolean().default(false),
    // Events from before auth kept time zones carry none.
    time_zone: z.string().min(1).max(100).nullable().default(null),
  }),
  meta: z.object({ version: z.number().int().min(1) }),
});

/** True for the event types this read model consumes. */
export function isUserEvent(type: string): boolean {
  return (USER_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The change an envelope carries, or a reason it cannot be applied (a malformed event,
 * which no redelivery would fix). The team is the envelope's.
 */
export function toUserChange(envelope: EventEnvelope): UserChange | { invalid: string } {
  if (!isUserEvent(envelope.type)) return { invalid: `not a user event: ${envelope.type}` };
  const parsed = userData.safeParse(envelope.data);
  const occurredAt = new Date(envelope.occurred_at);
  if (!parsed.success) return { invalid: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  if (Number.isNaN(occurredAt.getTime())) return { invalid: `occurred_at is not a time: ${envelope.occurred_at}` };
  const { id, attributes, meta } = parsed.data;
  return {
    user_id: Number(id),
    team_id: envelope.team_id,
    ...attributes,
    version: meta.version,
    occurred_at: occurredAt,
    deleted_at: envelope.type === 'user.deleted' ? occurredAt : null,
  };
}
