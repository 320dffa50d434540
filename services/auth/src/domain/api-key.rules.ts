import { CAPABILITIES, type ApiKeyKind, type Capability, type Role } from '@firewatch/auth';
import { ValidationError, type ValidationIssue } from '@firewatch/errors';
import type { CreateApiKeyInput } from './api-key.schemas.js';

const ATTRIBUTES = '/data/attributes';
const MAX_LIFETIME_MS = 5 * 366 * 24 * 60 * 60 * 1000;

/** The settled shape of a new key, before a token is issued for it. */
export interface ApiKeyDraft {
  name: string;
  description: string | null;
  kind: ApiKeyKind;
  role: Role | null;
  on_call_role: Role | null;
  capabilities: Capability[];
  group_ids: string[] | null;
  record_ids: string[] | null;
  /** For personal keys the user asked for; resolved against the team by the service. */
  user_id: number | null;
  expires_at: Date | null;
  rate_limit_read: number | null;
  rate_limit_write: number | null;
}

function issue(field: string, detail: string, code = 'invalid'): ValidationIssue {
  return { pointer: `${ATTRIBUTES}/${field}`, detail, code };
}

/** Future and at most five years away, as the reference API requires. */
export function checkExpiry(value: string | null | undefined, now: Date, issues: ValidationIssue[]): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (at.getTime() <= now.getTime()) issues.push(issue('expires_at', 'expires_at must be in the future.'));
  else if (at.getTime() - now.getTime() > MAX_LIFETIME_MS) issues.push(issue('expires_at', 'expires_at must be within 5 years.'));
  return at;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/**
 * The cross-field rules of a new key: what each kind needs and refuses. Collects
 * every problem so a client fixes its document in one pass.
 */
export function draftApiKey(input: CreateApiKeyInput, actorUserId: number | null, now: Date): ApiKeyDraft {
  const issues: ValidationIssue[] = [];
  const kind = input.kind;
  const groupIds = unique([...(input.group_ids ?? []), ...(input.group_id ? [input.group_id] : [])].map((id) => id.toLowerCase()));
  const recordIds = unique(input.record_ids ?? []);

  if (kind === 'group' && groupIds.length === 0) issues.push(issue('group_ids', 'group_ids is required for group keys.', 'required'));
  if (kind !== 'group' && groupIds.length > 0)
    issues.push(issue(input.group_ids ? 'group_ids' : 'group_id', 'Only group keys take group ids.'));
  if (kind === 'record' && recordIds.length === 0) issues.push(issue('record_ids', 'record_ids is required for record keys.', 'required'));
  if (kind !== 'record' && recordIds.length > 0) issues.push(issue('record_ids', 'Only record keys take record ids.'));

  let userId: number | null = null;
  if (kind === 'personal') {
    userId = input.user_id ?? actorUserId;
    if (userId === null) issues.push(issue('user_id', 'user_id is required: the caller acts for no user.', 'required'));
    for (const field of ['role', 'on_call_role'] as const) {
      if (input[field]) issues.push(issue(field, `Personal keys act with their user's ${field}; it cannot be set.`));
    }
  } else if (input.user_id !== undefined && input.user_id !== null) {
    issues.push(issue('user_id', 'Only personal keys take a user_id.'));
  }

  const expiresAt = checkExpiry(input.expires_at, now, issues);
  if (issues.length) throw new ValidationError(issues);

  const capabilities = input.capabilities ?? [...CAPABILITIES];
  return {
    name: input.name,
    description: input.description ?? null,
    kind,
    role: kind === 'personal' ? null : (input.role ?? 'user'),
    on_call_role: kind === 'personal' ? null : (input.on_call_role ?? 'user'),
    capabilities: CAPABILITIES.filter((c) => capabilities.includes(c)),
    group_ids: kind === 'group' ? groupIds : null,
    record_ids: kind === 'record' ? recordIds : null,
    user_id: userId,
    expires_at: expiresAt,
    rate_limit_read: input.rate_limit_read ?? null,
    rate_limit_write: input.rate_limit_write ?? null,
  };
}

/**
 * A group key's groups, as ids of the team's groups (docs/security.md, Group keys): UUIDs
 * as PostgreSQL writes them; `exists` says which are groups of the team.
 */
export function groupIssues(input: CreateApiKeyInput, exists: (id: string) => boolean): ValidationIssue[] {
  const named = input.group_ids
    ? input.group_ids.map((id, i) => [id, `group_ids/${i}`])
    : input.group_id
      ? [[input.group_id, 'group_id']]
      : [];
  return named
    .filter(([id]) => !exists(id.toLowerCase()))
    .map(([id, field]) => issue(field, `No team (group) ${id} in your team; group_ids name teams of /v1/teams by id.`, 'not_found'));
}

export function unknownUser(): ValidationError {
  return new ValidationError([issue('user_id', 'user_id must be a user of your team.', 'not_found')]);
}
