import { z } from 'zod';

const ids = z
  .array(z.uuid())
  .max(100)
  .nullable()
  .transform((v) => [...new Set(v ?? [])]);
const text = (max: number) => z.string().max(max).nullable();
const label = z.strictObject({ key: z.string().min(1).max(255), value: z.union([z.string().max(1000), z.number(), z.boolean()]) });
/** The most an alert's `data` holds as JSON: it is in every read and event of the alert. */
export const MAX_ALERT_DATA = 65_536;

/** `data`: any JSON object up to 64 KiB of text (ingestion keeps a larger payload as null: payload-fields.ts). */
const data = z
  .record(z.string(), z.unknown())
  .nullable()
  .refine((v) => v === null || JSON.stringify(v).length <= MAX_ALERT_DATA, 'must be at most 64 KiB as JSON');

/** The attributes of the reference's update_alert; new_alert adds status and the notification target. */
export const updatable = {
  noise: z.enum(['noise', 'not_noise']).nullable(),
  // Deprecated in the reference and kept for clients that send it; the stored source is where the alert came from.
  source: z.string().max(255),
  summary: z.string().trim().min(1).max(10_000),
  description: text(100_000),
  service_ids: ids,
  group_ids: ids,
  functionality_ids: ids,
  environment_ids: ids,
  started_at: z.iso.datetime({ offset: true }).nullable(),
  ended_at: z.iso.datetime({ offset: true }).nullable(),
  external_id: text(1000),
  external_url: text(2000),
  alert_urgency_id: z.uuid().nullable(),
  labels: z
    .array(label)
    .max(100)
    .nullable()
    .transform((v) => v ?? []),
  data,
  deduplication_key: text(512),
};

export const creatable = {
  ...updatable,
  status: z.enum(['open', 'triggered']),
  notification_target_type: z.enum(['User', 'Group', 'EscalationPolicy', 'Service', 'Functionality']).nullable(),
  notification_target_id: text(255),
};

export const createAlertSchema = z.strictObject(creatable).partial().required({ summary: true });
export const updateAlertSchema = z.strictObject(updatable).partial();
