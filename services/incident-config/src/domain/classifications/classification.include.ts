import { authorize } from '@firewatch/auth';
import type { IncludeLoader } from '@firewatch/resource-kit';
import type { ClassificationsDeps } from './classification.lookup.js';

/**
 * `include=severities` or `include=incident_types` of records whose
 * `retrospective_process_matching_criteria` list them under `key`: a read of those
 * records, so it takes their permission (403 as a direct read), and a record-scoped key
 * gets only the ones it lists.
 */
export function criteriaInclude(name: 'severities' | 'incident_types', key: string): IncludeLoader<ClassificationsDeps> {
  return async (rows, { principal, tx, deps, serializeAs, permissionOf }) => {
    authorize(principal, { ...permissionOf(name), action: 'read' });
    const named = rows.flatMap((r) => (r.retrospective_process_matching_criteria as Record<string, string[]> | null)?.[key] ?? []);
    const ids = [...new Set(named)].filter((id) => principal.record_ids === null || principal.record_ids.includes(id));
    return (await deps.classifications.byIds(tx, principal.team_id, name, ids)).map((row) => serializeAs(name, row));
  };
}
