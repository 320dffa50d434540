import type { Row } from '@firewatch/resource-kit';
import { CONTENT_FIELDS, type ContentField } from './content-fields.js';
import { LiquidLimitError, type LiquidPool } from './render-pool.js';
import { smsSegments, type SmsSegments } from './sms-segments.js';

/** One stage of a template, rendered. */
export interface RenderedStage {
  id: string;
  communication_stage: { id: string; name: string };
  email_subject: string | null;
  email_body: string | null;
  chat_content: string | null;
  sms_content: string | null;
  sms_segments: SmsSegments;
}

/**
 * Renders every Liquid field of every stage row (null stays null) in one job of the
 * Liquid pool, so the whole preview shares one wall-clock budget and one worker heap.
 * The first failure ends the preview with an issue naming the stage and the field; a
 * preview stopped by the pool's time or memory bound names that bound.
 */
export async function renderTemplateStages(
  liquid: LiquidPool,
  rows: readonly Row[],
  variables: Record<string, unknown>,
): Promise<{ stages: RenderedStage[] } | { issue: string }> {
  const sources = rows.flatMap((row) => CONTENT_FIELDS.map((field) => (typeof row[field] === 'string' ? (row[field] as string) : null)));
  const at = (index: number) => ({
    stage: String(rows[Math.floor(index / CONTENT_FIELDS.length)].communication_stage_name),
    field: CONTENT_FIELDS[index % CONTENT_FIELDS.length],
  });
  let reply;
  try {
    reply = await liquid.render(sources, variables);
  } catch (err) {
    if (err instanceof LiquidLimitError) return { issue: `The preview was stopped: ${err.message}.` };
    throw err;
  }
  if (!reply.ok) {
    const { stage, field } = at(reply.index);
    return { issue: `Stage "${stage}", ${field}: rendering failed: ${reply.message}` };
  }
  const outputs = reply.outputs;
  return {
    stages: rows.map((row, r) => {
      const out = Object.fromEntries(CONTENT_FIELDS.map((field, f) => [field, outputs[r * CONTENT_FIELDS.length + f]])) as Record<
        ContentField,
        string | null
      >;
      return {
        id: String(row.id),
        communication_stage: { id: String(row.communication_stage_id), name: String(row.communication_stage_name) },
        ...out,
        sms_segments: smsSegments(out.sms_content ?? ''),
      };
    }),
  };
}
