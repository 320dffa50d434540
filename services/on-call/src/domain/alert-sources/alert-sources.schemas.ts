import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import { jsonPathIssue, regexIssue } from '../matching/index.js';
import { templateIssue } from '../alerts-in/alert-template.js';
import { ownerGroupIds } from '../targets/group-references.js';

/** The reference's alert source types; the ingestion formats of each: docs/on-call.md, "Ingestion". */
export const SOURCE_TYPES = [
  'email',
  'app_dynamics',
  'catchpoint',
  'cloudflare',
  'datadog',
  'dynatrace',
  'alertmanager',
  'google_cloud',
  'grafana',
  'sentry',
  'generic_webhook',
  'cloud_watch',
  'aws_sns',
  'checkly',
  'azure',
  'new_relic',
  'splunk',
  'chronosphere',
  'app_optics',
  'bug_snag',
  'honeycomb',
  'monte_carlo',
  'nagios',
  'prtg',
] as const;

const issueOf = (judge: (s: string) => string | null) => (s: string, ctx: z.RefinementCtx) => {
  const issue = judge(s);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
};

const template = z.string().max(1024).superRefine(issueOf(templateIssue)).nullable();

const fieldMapping = z.strictObject({
  field: z.enum(['external_id', 'state', 'alert_title', 'alert_description', 'alert_external_url']),
  json_path: z.string().min(1).superRefine(issueOf(jsonPathIssue)),
});

/** The attributes a create or update may write. */
export const writable = {
  name: z.string().trim().min(1).max(255),
  source_type: z.enum(SOURCE_TYPES),
  enabled: z.boolean(),
  // Payloads a minute the gateway admits for the source (docs/on-call.md, "Ingestion rate limit"); null: the deployment's default.
  rate_limit_per_minute: z.number().int().min(1).max(1_000_000).nullable(),
  alert_urgency_id: z.uuid().nullable(),
  deduplicate_alerts_by_key: z.boolean(),
  deduplication_key_kind: z.literal('payload'),
  deduplication_key_path: z.string().min(1).superRefine(issueOf(jsonPathIssue)).nullable(),
  deduplication_key_regexp: z.string().min(1).superRefine(issueOf(regexIssue)).nullable(),
  // Teams' ids (GET /v1/teams), each a team of the tenant (the resource's validate hook).
  owner_group_ids: ownerGroupIds,
  alert_template_attributes: z.strictObject({ title: template, description: template, external_url: template }).partial().nullable(),
  sourceable_attributes: z
    .strictObject({
      auto_resolve: z.boolean(),
      resolve_state: z.string().max(255).nullable(),
      field_mappings_attributes: z.array(fieldMapping).max(10),
    })
    .partial()
    .nullable(),
};

/**
 * What needs several attributes: deduplication by key needs the key's path (the
 * reference: "If enabled, deduplication_key_kind and deduplication_key_path are
 * required"); auto-resolve needs a `state` mapping and the state that means resolved.
 */
export function sourceIssues(merged: Row): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (merged.deduplicate_alerts_by_key === true && !merged.deduplication_key_path)
    issues.push({
      pointer: '/data/attributes/deduplication_key_path',
      code: 'required',
      detail: 'deduplication_key_path: required when deduplicate_alerts_by_key is true',
    });
  const sourceable = merged.sourceable_attributes as {
    auto_resolve?: boolean;
    resolve_state?: string | null;
    field_mappings_attributes?: { field: string }[];
  } | null;
  if (sourceable?.auto_resolve) {
    if (!sourceable.resolve_state)
      issues.push({
        pointer: '/data/attributes/sourceable_attributes/resolve_state',
        code: 'required',
        detail: 'resolve_state: required when auto_resolve is true',
      });
    if (!sourceable.field_mappings_attributes?.some((m) => m.field === 'state'))
      issues.push({
        pointer: '/data/attributes/sourceable_attributes/field_mappings_attributes',
        code: 'required',
        detail: 'field_mappings_attributes: a mapping of the field state is required when auto_resolve is true',
      });
  }
  return issues;
}
