import type { Migrations } from '@firewatch/db';
import { outboxMigration } from '@firewatch/events';
import { idempotencyMigration } from '@firewatch/http';
import * as environments from './20261122-0001-environments.js';
import * as catalogProperties from './20261123-0010-catalog-properties.js';
import * as incidentRoles from './20261123-0011-incident-roles.js';
import * as servicesFunctionalities from './20261123-0020-services-functionalities.js';
import * as secrets from './20261123-0030-secrets.js';
import * as formSets from './20261123-0031-form-sets.js';
import * as retrospectiveProcesses from './20261123-0032-retrospective-processes.js';
import * as dashboards from './20261123-0040-dashboards.js';
import * as authorizations from './20261123-0041-authorizations.js';
import * as incidents from './20261123-0050-incidents.js';
import * as incidentEvents from './20261123-0051-incident-events.js';
import * as incidentEventServices from './20261123-0052-incident-event-services.js';
import * as cascadeIndexes from './20261123-0060-cascade-indexes.js';
import * as catalogValuesInCode from './20261123-0061-catalog-values-in-code.js';
import * as incidentCreators from './20261123-0062-incident-creators.js';
import * as secretNamesPerOwnerSet from './20261123-0070-secret-names-per-owner-set.js';
import * as unlistedSlugs from './20261123-0071-unlisted-slugs.js';
import * as catalogKeysPerOwnerSet from './20261123-0072-catalog-keys-per-owner-set.js';
import * as dashboardHexColors from './20261125-0080-dashboard-hex-colors.js';
import * as severitiesIncidentTypes from './20261125-0090-severities-incident-types.js';
import * as groups from './20261125-0100-groups.js';
import * as ownerGroupsAsTeamIds from './20261125-0101-owner-groups-as-team-ids.js';
import * as listOrderIndexes from './20261126-0800-list-order-indexes.js';
import * as moreListOrderIndexes from './20261230-0600-more-list-order-indexes.js';
import * as redundantIndexes from './20261231-0700-redundant-indexes.js';

/** Every schema change of incident-config, applied in name order. */
export const migrations: Migrations = {
  '20261122-0000-outbox': outboxMigration,
  '20261122-0001-environments': environments,
  '20261123-0010-catalog-properties': catalogProperties,
  '20261123-0011-incident-roles': incidentRoles,
  '20261123-0020-services-functionalities': servicesFunctionalities,
  '20261123-0030-secrets': secrets,
  '20261123-0031-form-sets': formSets,
  '20261123-0032-retrospective-processes': retrospectiveProcesses,
  '20261123-0040-dashboards': dashboards,
  '20261123-0041-authorizations': authorizations,
  '20261123-0050-incidents': incidents,
  '20261123-0051-incident-events': incidentEvents,
  '20261123-0052-incident-event-services': incidentEventServices,
  '20261123-0060-cascade-indexes': cascadeIndexes,
  '20261123-0061-catalog-values-in-code': catalogValuesInCode,
  '20261123-0062-incident-creators': incidentCreators,
  '20261123-0070-secret-names-per-owner-set': secretNamesPerOwnerSet,
  '20261123-0071-unlisted-slugs': unlistedSlugs,
  '20261123-0072-catalog-keys-per-owner-set': catalogKeysPerOwnerSet,
  '20261125-0080-idempotency-keys': idempotencyMigration,
  '20261125-0080-dashboard-hex-colors': dashboardHexColors,
  '20261125-0090-severities-incident-types': severitiesIncidentTypes,
  '20261125-0100-groups': groups,
  '20261125-0101-owner-groups-as-team-ids': ownerGroupsAsTeamIds,
  '20261126-0800-list-order-indexes': listOrderIndexes,
  '20261230-0600-more-list-order-indexes': moreListOrderIndexes,
  '20261231-0700-redundant-indexes': redundantIndexes,
};
