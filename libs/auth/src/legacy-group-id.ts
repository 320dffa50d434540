import { v5 as uuidv5, validate as isUuid } from 'uuid';

/** Fixed namespace of the ids below; changing it would orphan every migrated group. */
const LEGACY_GROUP_NAMESPACE = '5b0b7d53-3c8e-4d0f-9a51-2f1d6c1e9b7a';

/**
 * The team (group) id that stands for a free-text group name written before teams
 * existed (`group_ids` on API keys, `owner_group_ids` on records). Every service
 * migrates its own strings with this function, so auth's groups and the others'
 * references meet on the same id without talking to each other. A value that is already
 * a UUID is kept (lower-cased): it may already name a team.
 */
export function legacyGroupId(teamId: number, value: string): string {
  if (isUuid(value)) return value.toLowerCase();
  return uuidv5(`${teamId}:${value}`, LEGACY_GROUP_NAMESPACE);
}
