import { z } from 'zod';
import { defineResource, serialize, type ResourceDefinition } from '@firewatch/resource-kit';
import type { ClassificationsDeps } from './classification.lookup.js';
import {
  CLASSIFICATION_DEFAULT_SORT,
  CLASSIFICATION_JSON_COLUMNS,
  CLASSIFICATION_SORTS,
  classificationDefaults,
  classificationFields,
  inUseIssues,
  severityLevel,
} from './classification.fields.js';
import { STARTING_SEVERITIES } from './severity-seeds.js';

const writable = { ...classificationFields, severity: severityLevel };

/**
 * Severities (docs/api-contract.md §1): how bad an incident is, named by an incident's
 * `severity_id` and by retrospective processes' matching criteria. A team starts with
 * SEV0 to SEV3, made before its first request that reads or names severities (seeded once:
 * deleting them all does not bring them back). A severity in use cannot be deleted (422).
 */
export const severities: ResourceDefinition<ClassificationsDeps> = defineResource<ClassificationsDeps>({
  type: 'severities',
  path: '/v1/severities',
  table: 'severities',
  event: 'severity',
  permission: { scope: 'ir.severities', side: 'ir' },
  summary: { singular: 'severity', plural: 'severities' },
  description:
    'A team starts with four severities, made with its first request that reads or names severities: SEV0 (critical), SEV1 (high), SEV2 (medium) and SEV3 (low), at positions 0 to 3, each with a colour and a description. The team may change or delete them; they are made once, so deleting them all leaves none. A create without `severity` is `medium`.',
  create: z.strictObject(writable).partial().required({ name: true }),
  update: z.strictObject(writable).partial(),
  attributes: ['name', 'slug', 'description', 'severity', 'color', 'position', 'notify_emails', 'chat_channels', 'chat_aliases'],
  jsonColumns: CLASSIFICATION_JSON_COLUMNS,
  slug: { from: 'name' },
  position: {},
  updateMethods: ['put'],
  filters: {
    search: { kind: 'search', columns: ['name', 'description'] },
    slug: 'string',
    name: 'string',
    severity: 'string',
    color: 'string',
    created_at: 'date',
  },
  sorts: [...CLASSIFICATION_SORTS, 'severity'],
  defaultSort: [...CLASSIFICATION_DEFAULT_SORT],
  unique: {
    severities_team_id_name_unique: { pointer: '/data/attributes/name', detail: 'A severity with this name already exists.' },
  },
  hooks: {
    beforeAccess: ({ principal, tx, deps }) =>
      deps.classifications.seedOnce(tx, principal.team_id, async (seedTx) => {
        for (const row of await deps.classifications.insertSeverities(seedTx, principal.team_id, STARTING_SEVERITIES)) {
          await deps.writeEvent(seedTx, { type: 'severity.created', team_id: principal.team_id, data: serialize(severities, row) });
        }
      }),
    defaults: (attributes) => ({ ...classificationDefaults, severity: 'medium', ...attributes }),
    beforeRemove: (ctx) => inUseIssues('severity', ctx),
  },
});
