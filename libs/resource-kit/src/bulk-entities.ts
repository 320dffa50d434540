import { ConflictError, ValidationError } from '@firewatch/errors';
import type { Row } from './resource-shapes.js';

/** One bulk_upsert entity's problems, in the shape docs/decisions.md (Resources) gives the 422. */
export interface EntityProblem {
  index: number;
  external_id: string;
  errors: string[];
}

/**
 * A 422 naming each failed entity by position and external_id (the reference's
 * `bulk_upsert_*_error`); throwing it from an action rolls the batch back.
 */
export function entityErrors(problems: readonly EntityProblem[]): ValidationError {
  return new ValidationError(
    problems.map((p) => ({
      pointer: `/entities/${p.index}`,
      code: 'invalid_entity',
      detail: `Entity ${p.index} (${p.external_id}): ${p.errors.join('; ')}`,
      members: { index: p.index, external_id: p.external_id, errors: p.errors },
    })),
  );
}

/**
 * A write's refusal (the declaration's checks, a unique name) as the failure of the
 * entity that caused it; anything else is not the entity's fault and passes through.
 */
export function asEntityError(err: unknown, index: number, externalId: string): unknown {
  if (err instanceof ValidationError) return entityErrors([{ index, external_id: externalId, errors: err.issues.map((i) => i.detail) }]);
  if (err instanceof ConflictError) return entityErrors([{ index, external_id: externalId, errors: [err.detail ?? err.message] }]);
  return err;
}

/** JSON with object keys sorted: jsonb hands keys back in its own order, which is no change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/**
 * The attributes whose value differs from the stored row's (a missing column counts as
 * null), so a bulk upsert writes, and announces, only an entity that changes something.
 */
export function changedAttributes(row: Row, attributes: Row): Row {
  return Object.fromEntries(Object.entries(attributes).filter(([key, value]) => canonical(value) !== canonical(row[key] ?? null)));
}
