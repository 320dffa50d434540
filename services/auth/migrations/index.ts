import type { Migrations } from '@firewatch/db';
import { outboxMigration } from '@firewatch/events';
import { idempotencyMigration } from '@firewatch/http';
import { teamsUsersMigration } from './20250601-0001-teams-users.migration.js';
import { apiKeysMigration } from './20250601-0002-api-keys.migration.js';
import { oauthMigration } from './20250610-0003-oauth.migration.js';
import { usersEmailIndexMigration } from './20250620-0004-users-email-index.migration.js';
import { oauthHashedTokenIdsMigration } from './20250620-0005-oauth-hashed-token-ids.migration.js';
import { usersVersionMigration } from './20261123-0006-users-version.migration.js';
import { groupsMigration } from './20261125-0020-groups.migration.js';
import { keyGroupsMigration } from './20261125-0021-key-groups.migration.js';
import { groupVersionsMigration } from './20261125-0022-group-versions.migration.js';
import { groupIdsPerTeamMigration } from './20261125-0023-group-ids-per-team.migration.js';
import { usersProfileMigration } from './20261125-0030-users-profile.migration.js';
import { groupPropertiesMigration } from './20261126-0700-group-properties.migration.js';
import { usersTeamNameMigration } from './20261126-0701-users-team-name.migration.js';
import { listOrderIndexesMigration } from './20261230-0500-list-order-indexes.migration.js';
import { redundantIndexesMigration } from './20261231-0800-redundant-indexes.migration.js';

/** The auth service's schema, applied in name order at start-up and by `firewatch migrate`. */
export const migrations: Migrations = {
  '20250601_0000_outbox': outboxMigration,
  '20250601_0001_teams_users': teamsUsersMigration,
  '20250601_0002_api_keys': apiKeysMigration,
  '20250610_0003_oauth': oauthMigration,
  '20250620_0004_users_email_index': usersEmailIndexMigration,
  '20250620_0005_oauth_hashed_token_ids': oauthHashedTokenIdsMigration,
  '20261123_0006_users_version': usersVersionMigration,
  '20261125_0007_idempotency_keys': idempotencyMigration,
  '20261125_0020_groups': groupsMigration,
  '20261125_0021_key_groups': keyGroupsMigration,
  '20261125_0022_group_versions': groupVersionsMigration,
  '20261125_0023_group_ids_per_team': groupIdsPerTeamMigration,
  '20261125_0030_users_profile': usersProfileMigration,
  '20261126_0700_group_properties': groupPropertiesMigration,
  '20261126_0701_users_team_name': usersTeamNameMigration,
  '20261230_0500_list_order_indexes': listOrderIndexesMigration,
  '20261231_0800_redundant_indexes': redundantIndexesMigration,
};
