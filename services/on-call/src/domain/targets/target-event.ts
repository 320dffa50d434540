import { z } from 'zod';
import type { EventEnvelope } from '@firewatch/events';
import type { TargetType } from './targets.deps.js';

/**
 * The event families that announce records an alert group may target, with the type
 * they are targets of and their JSON:API type: services and functionalities from
 * incident-config, teams ("groups") from auth.
 */
const FAMILIES = {
  service: { target_type: 'Service', resource: 'services' },
  functionality: { target_type: 'Functionality', resource: 'functionalities' },
  group: { target_type: 'Group', resource: 'groups' },
} as const satisfies Record<string, { target_type: TargetType; resource: string }>;

type TargetFamily = keyof typeof FAMILIES;

/** The families the targets read model consumes (`<family>.created|updated|deleted`). */
export const TARGET_FAMILIES = Object.keys(FAMILIES) as TargetFamily[];

/** One target's state as an event tells it, ready for the read model. */
export interface TargetChange {
  team_id: number;
  target_type: TargetType;
  /** Lowercase, as alert groups store ids. */
  target_id: string;
  name: string | null;
  /**
   * When the record reached this state: its `updated_at`, else the event's time. The
   * read model keeps the newest, so a redelivered or overtaken event changes nothing.
   */
  changed_at: Date;
  /** The time of deletion for `<family>.deleted`, else null: a tombstone, final (ids are never reused). */
  deleted_at: Date | null;
  /** A team's members (auth's `user_ids`, admins included), in its order; [] for other families and deleted teams. */
  member_ids: number[];
  /** A team's admins (auth's `admin_ids`); [] for other families and deleted teams. */
  admin_ids: number[];
}

// The resource object as the publisher's API answers it: only what the read model keeps is read.
const resourceObject = z.object({
  id: z.uuid(),
  type: z.string(),
  attributes: z.object({ name: z.string().nullish(), updated_at: z.string().nullish() }).loose(),
});
// A team's people, as auth's group serializer answers them (integer user ids, at most 1000 each).
const userIds = z.array(z.number().int().min(1).max(2_147_483_647)).max(10_000).nullish();
const teamPeople = z.object({ user_ids: userIds, admin_ids: userIds });

const ACTIONS = ['created', 'updated', 'deleted'];

const familyOf = (type: string): TargetFamily | undefined => {
  const [family, action, ...rest] = type.split('.');
  return family in FAMILIES && ACTIONS.includes(action) && !rest.length ? (family as TargetFamily) : undefined;
};

/**
 * The change an envelope carries, or a reason it cannot be applied (a malformed event,
 * which no redelivery would fix). The team is the envelope's.
 */
export function toTargetChange(envelope: EventEnvelope): TargetChange | { invalid: string } {
  const family = familyOf(envelope.type);
  if (!family) return { invalid: `not a target event: ${envelope.type}` };
  const parsed = resourceObject.safeParse(envelope.data);
  if (!parsed.success) return { invalid: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  const { target_type, resource } = FAMILIES[family];
  if (parsed.data.type !== resource) return { invalid: `data.type is ${parsed.data.type}, not ${resource}` };
  // A team no integer column holds could never be stored, however often redelivered.
  if (envelope.team_id < 1 || envelope.team_id > 2_147_483_647) return { invalid: `team_id is not a team: ${envelope.team_id}` };
  const occurredAt = new Date(envelope.occurred_at);
  if (Number.isNaN(occurredAt.getTime())) return { invalid: `occurred_at is not a time: ${envelope.occurred_at}` };
  const { updated_at, name } = parsed.data.attributes;
  const updatedAt = new Date(updated_at ?? Number.NaN);
  const deleted = envelope.type.endsWith('.deleted');
  const team = family === 'group' ? teamPeople.safeParse(parsed.data.attributes) : undefined;
  if (team && !team.success) return { invalid: team.error.issues.map((i) => `attributes.${i.path.join('.')}: ${i.message}`).join('; ') };
  // Only a live team has people: a tombstone pages nobody, whatever its last state listed.
  const people = (ids: number[] | null | undefined) => (team && !deleted ? [...new Set(ids ?? [])] : []);
  const members = people(team?.data.user_ids);
  const admins = people(team?.data.admin_ids);
  return {
    team_id: envelope.team_id,
    target_type,
    target_id: parsed.data.id.toLowerCase(),
    name: name ?? null,
    changed_at: Number.isNaN(updatedAt.getTime()) ? occurredAt : updatedAt,
    deleted_at: deleted ? occurredAt : null,
    // auth keeps admins among the members; an event from before that rule still pages its admins as members.
    member_ids: [...members, ...admins.filter((id) => !members.includes(id))],
    admin_ids: admins,
  };
}
