import { z } from 'zod';

// TODO(oncall-b): replace with matching's shared alertInputSchema once exported (see /tmp/helpers/oncall.md).
const text = z.string().max(10_000).nullable().optional();
const uuids = z.array(z.uuid()).max(100).nullable().optional();

/** Largest JSON payload an evaluated alert may carry, in characters of its JSON form. */
export const MAX_PAYLOAD_CHARS = 65_536;

/** An alert as an evaluate endpoint receives it (the matching engine's AlertInput), bounded. */
export const alertInputSchema = z.strictObject({
  summary: text,
  description: text,
  external_url: text,
  urgency_id: z.uuid().nullable().optional(),
  source_id: z.uuid().nullable().optional(),
  source: z.string().max(255).nullable().optional(),
  service_ids: uuids,
  group_ids: uuids,
  fields: z.record(z.string().max(255), z.string().max(10_000).nullable()).nullable().optional()
    .refine((f) => Object.keys(f ?? {}).length <= 100, 'has more than 100 fields'),
  payload: z.unknown().optional()
    .refine((p) => p === undefined || JSON.stringify(p).length <= MAX_PAYLOAD_CHARS, `is larger than ${MAX_PAYLOAD_CHARS} characters of JSON`),
});
