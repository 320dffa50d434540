import type { z } from 'zod';
import { ConflictError, ValidationError } from '@firewatch/errors';

/** What the bulk actions need to know of one catalog family (functionalities, services, environments). */
export interface BulkFamily {
  /** JSON:API type, e.g. `functionalities`. */
  type: string;
  /** Singular, for messages. */
  noun: string;
  /** The catalog whose properties `fields` name (a catalog property's `catalog_type`). */
  catalogType: string;
  /** The family's `name` schema: required for new records, optional for updates. */
  name: z.ZodType;
  /** The other attributes an entity may carry (the reference's bulk entity schema, less external_id, name and fields). */
  attributes: z.ZodObject;
  /** The declaration's `ownerGroups`: an entity cannot name them, so a group key's new records get its groups. */
  ownerGroups?: { column: string };
}

/** One entity's problems, in the shape docs/decisions.md (Resources) gives the 422. */
export interface EntityProblem {
  index: number;
  external_id: string;
  errors: string[];
}

/** A 422 naming each failed entity by position and external_id; throwing it rolls the batch back. */
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
