import { z } from 'zod';
import type { AlertInput } from './condition.types.js';

/** Longest alert field value. */
export const MAX_FIELD_LENGTH = 65_536;
/** Largest payload an evaluated alert may carry, as JSON text. */
export const MAX_PAYLOAD_BYTES = 131_072;
/** Deepest nesting of objects and arrays in that payload. */
export const MAX_PAYLOAD_DEPTH = 64;

const text = z.string().max(10_000).nullable().optional();
const recordId = z.uuid().nullable().optional();
const recordIds = z.array(z.uuid()).max(100).nullable().optional();

/**
 * The alert of an evaluate request (re-trigger rules and alert groups alike), bounded
 * so that one request stays cheap (the evaluation's budget does the rest): field values
 * at most MAX_FIELD_LENGTH characters, the payload at most MAX_PAYLOAD_BYTES of JSON.
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
  fields: z
    .record(z.string().min(1).max(255), z.string().max(MAX_FIELD_LENGTH).nullable())
    .refine((f) => Object.keys(f).length <= 100, 'holds at most 100 fields')
    .nullable()
    .optional(),
  // Depth first, without recursion: z.json() and JSON.stringify recurse, and a 1 MB body of
  // nested arrays would otherwise overflow the stack (a 500 instead of a 422).
  payload: z
    .unknown()
    .refine((p) => depthWithin(p, MAX_PAYLOAD_DEPTH), { message: `nests deeper than ${MAX_PAYLOAD_DEPTH} levels`, abort: true })
    .pipe(z.json())
    .refine((p) => Buffer.byteLength(JSON.stringify(p)) <= MAX_PAYLOAD_BYTES, `is larger than ${MAX_PAYLOAD_BYTES} bytes of JSON`)
    .optional()
    .describe(
      `The JSON payload the alert arrived with: any JSON value, at most ${MAX_PAYLOAD_BYTES} bytes, nested at most ${MAX_PAYLOAD_DEPTH} levels.`,
    ),
}) satisfies z.ZodType<AlertInput>;

/** Whether no object or array in `value` lies deeper than `max` levels (iteratively). */
export function depthWithin(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return true;
}
