import type { Row } from '@firewatch/resource-kit';
import { LiquidRenderError, renderLiquid } from './liquid-engine.js';
import { smsSegments, type SmsSegments } from './sms-segments.js';

const FIELDS = ['email_subject', 'email_body', 'chat_content', 'sms_content'] as const;

/** All renders of one preview together: each is bounded, and so is their sum. */
export const PREVIEW_BUDGET_MS = 2_000;

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
 * Renders every Liquid field of every stage row (null stays null). The first failure
 * ends the preview with an issue naming the stage and the field.
 */
export async function renderTemplateStages(rows: readonly Row[], variables: Record<string, unknown>): Promise<{ stages: RenderedStage[] } | { issue: string }> {
  const deadline = performance.now() + PREVIEW_BUDGET_MS;
  const stages: RenderedStage[] = [];
  for (const row of rows) {
    const stageName = String(row.communication_stage_name);
    const out: Partial<Record<(typeof FIELDS)[number], string | null>> = {};
    for (const field of FIELDS) {
      const source = row[field];
      if (typeof source !== 'string') {
        out[field] = null;
        continue;
      }
      if (performance.now() > deadline) return { issue: `The preview took longer than ${PREVIEW_BUDGET_MS} ms; stopped at stage "${stageName}", ${field}.` };
      try {
        out[field] = await renderLiquid(source, variables);
      } catch (err) {
        if (!(err instanceof LiquidRenderError)) throw err;
        return { issue: `Stage "${stageName}", ${field}: rendering failed: ${err.message}` };
      }
    }
    stages.push({
      id: String(row.id),
      communication_stage: { id: String(row.communication_stage_id), name: stageName },
      email_subject: out.email_subject ?? null,
      email_body: out.email_body ?? null,
      chat_content: out.chat_content ?? null,
      sms_content: out.sms_content ?? null,
      sms_segments: smsSegments(out.sms_content ?? ''),
    });
  }
  return { stages };
}
