import { z } from 'zod';
import type { AlertInput } from './condition.types.js';
import { MAX_REGEX_INPUT_LENGTH } from './safe-regex.js';

/** Largest payload an evaluated alert may carry, as JSON text. */
export const MAX_PAYLOAD_BYTES = 131_072;

const text = z.string().max(10_000).nullable().optional();
const recordId = z.uuid().nullable().optional();
const recordIds = z.array(z.uuid()).max(100).nullable().optional();

/**
 * The alert of an evaluate request (re-trigger rules and alert groups alike), bounded
 * so that one evaluation stays cheap: a field value may be as long as a pattern is ever
 * run against, the payload at most MAX_PAYLOAD_BYTES of JSON.
 */
export const alertInputSchema = z.strictObject({
  summary: text,
  description: text,
  external_url: text,
  urgency_id: recordId,
  source_id: recordId,
  /** A non-integration source's alias (manual, api, ...). */
  source: z.string().max(255).nullable().optional(),
  service_ids: recordIds,
  group_ids: recordIds,
  /** Alert field values by alert field id. */
  fields: z.record(z.string().min(1).max(255), z.string().max(MAX_REGEX_INPUT_LENGTH).nullable())
    .refine((f) => Object.keys(f).length <= 100, 'holds at most 100 fields')
    .nullable().optional(),
  payload: z.json().optional()
    .refine((p) => p === undefined || Buffer.byteLength(JSON.stringify(p)) <= MAX_PAYLOAD_BYTES, `is larger than ${MAX_PAYLOAD_BYTES} bytes of JSON`),
}) satisfies z.ZodType<AlertInput>;
