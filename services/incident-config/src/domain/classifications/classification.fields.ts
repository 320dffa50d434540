import { z } from 'zod';
import { authorize, type Principal } from '@firewatch/auth';
import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext } from '@firewatch/resource-kit';
import { catalogEntityFields as shared } from '../catalog/catalog-entity.fields.js';
import { privateToCreator } from '../incidents/incident-visibility.js';
import type { Classification, ClassificationsDeps } from './classification.lookup.js';

/**
 * The writable attributes severities and incident types share: the reference's, with the
 * specification's `chat_*` names for its `slack_*`.
 */
export const classificationFields = {
  name: shared.name,
  slug: shared.slug,
  description: shared.description,
  color: shared.color,
  position: shared.position,
  notify_emails: shared.notify_emails,
  chat_channels: shared.chat_channels,
  chat_aliases: shared.chat_aliases,
};

export const CLASSIFICATION_JSON_COLUMNS = ['notify_emails', 'chat_channels', 'chat_aliases'] as const;

/** Empty lists rather than nulls on create, as the reference returns them. */
export const classificationDefaults = { description: null, color: null, notify_emails: [], chat_channels: [], chat_aliases: [] };

/** The reference's sorts of both lists; the position first by default, as a team orders them. */
export const CLASSIFICATION_SORTS = ['name', 'slug', 'position', 'color', 'created_at', 'updated_at'] as const;
export const CLASSIFICATION_DEFAULT_SORT = [
  { field: 'position', direction: 'asc' },
  { field: 'created_at', direction: 'asc' },
] as const;

const NOUNS: Record<Classification, string> = { severity: 'severity', incident_type: 'incident type' };
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Whether `principal` may read the records of `scope` at all (an OAuth token without its scope may not). */
function mayRead(principal: Principal, scope: string): boolean {
  try {
    authorize(principal, { scope, side: 'ir', action: 'read' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The 422 that refuses deleting a severity or incident type something still names,
 * naming those users; none when nothing does. The record is locked by the delete, and a
 * write naming it share-locks it (`visibleIds`), so none can start naming it meanwhile.
 */
export async function inUseIssues(kind: Classification, ctx: HookContext<ClassificationsDeps>): Promise<ValidationIssue[]> {
  const users = await ctx.deps.classifications.usersOf(
    ctx.tx,
    ctx.principal.team_id,
    kind,
    String(ctx.existing!.id),
    // Told as the caller sees them: a number or a name would tell of private incidents, or
    // of records a record-scoped key does not list, that it cannot read.
    { incidents: privateToCreator(ctx.principal, 'read'), recordIds: ctx.principal.record_ids },
  );
  // A token that may not read incidents (or retrospective processes) at all learns only that some exist.
  const seesIncidents = mayRead(ctx.principal, 'ir.incidents');
  const seesProcesses = mayRead(ctx.principal, 'ir.retrospectives');
  const incidents = seesIncidents ? users.incidents : 0;
  const unseenIncidents = users.unseenIncidents || (!seesIncidents && users.incidents > 0);
  const retrospectiveProcesses = seesProcesses ? users.retrospectiveProcesses : [];
  const unseenProcesses = users.unseenProcesses || (!seesProcesses && users.retrospectiveProcesses.length > 0);
  const named = [
    ...(incidents ? [plural(incidents, 'incident')] : []),
    ...(unseenIncidents ? ['incidents you cannot see'] : []),
    ...(retrospectiveProcesses.length
      ? [
          `the retrospective process${retrospectiveProcesses.length === 1 ? '' : 'es'} ${retrospectiveProcesses.map((n) => `"${n}"`).join(', ')}`,
        ]
      : []),
    ...(unseenProcesses ? ['retrospective processes you cannot see'] : []),
  ];
  if (!named.length) return [];
  return [
    {
      pointer: '/data',
      code: 'in_use',
      detail: `This ${NOUNS[kind]} is in use by ${named.join(' and ')}; change those first.`,
    },
  ];
}

/** The severity level of the reference's enum. */
export const SEVERITY_LEVELS = ['critical', 'high', 'medium', 'low'] as const;
export const severityLevel = z.enum(SEVERITY_LEVELS);
