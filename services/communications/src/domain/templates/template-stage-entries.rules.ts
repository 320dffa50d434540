import { z } from 'zod';
import type { ValidationIssue } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import { CONTENT_FIELDS, FIELD_MAX, TEMPLATE_MAX, type ContentField } from '../liquid/content-fields.js';
import { LiquidLimitError, type LiquidPool } from '../liquid/render-pool.js';
import { fields } from '../communications.fields.js';

const content = Object.fromEntries(CONTENT_FIELDS.map((f) => [f, z.string().max(FIELD_MAX[f]).nullable()])) as Record<
  ContentField,
  z.ZodNullable<z.ZodString>
>;

/** On create every entry names its stage. */
export const createEntries = z
  .array(
    z
      .strictObject({ communication_stage_id: fields.id, ...content })
      .partial()
      .required({ communication_stage_id: true }),
  )
  .max(TEMPLATE_MAX.entries);

/**
 * On update an entry with the `id` of one of the template's stages changes it
 * (`_destroy: true` removes it); one with a `communication_stage_id` adds content for
 * that stage. An entry names one or the other. `id: null` is the reference's (its `id`
 * is nullable) and means no id.
 */
export const updateEntries = z
  .array(
    z
      .strictObject({ id: fields.id.nullable(), communication_stage_id: fields.id, ...content, _destroy: z.boolean() })
      .partial()
      .superRefine((e, ctx) => {
        if ((e.id == null) === (e.communication_stage_id === undefined)) {
          ctx.addIssue({
            code: 'custom',
            message: 'names either id (a stage of this template, to change) or communication_stage_id (to add one), not both or neither',
          });
        } else if (e._destroy !== undefined && e.id == null) {
          ctx.addIssue({ code: 'custom', path: ['_destroy'], message: 'only an entry with an id can be destroyed' });
        }
      })
      .transform(({ id, ...entry }) => (id == null ? entry : { id, ...entry })),
  )
  .max(TEMPLATE_MAX.entries);

export type StageEntry = Partial<Record<ContentField, string | null>> & {
  id?: string;
  communication_stage_id?: string;
  _destroy?: boolean;
};

/** What the template's checks need to know of the stages it refers to. */
export interface EntryContext {
  /** The template's current stage rows (update), each with `communication_stage_id` and its name. */
  current: Row[];
  /** Names of the team's stages the entries name, by id; a stage absent here is not the team's. */
  stageNames: Map<string, string>;
  pointer: string;
  /** Where the Liquid is parsed. */
  liquid: LiquidPool;
}

const length = (v: unknown) => (typeof v === 'string' ? v.length : 0);
const contentOf = (e: Row | StageEntry) => CONTENT_FIELDS.reduce((n, f) => n + length((e as Row)[f]), 0);

/**
 * Every entry that names what does not exist here or breaks a rule, as 422 issues at the
 * entry: an id that is not one of this template's stages or that an earlier entry named,
 * a stage that is not the team's, a stage given twice, the entry that takes the template
 * past its bounds (TEMPLATE_MAX, counting the entries it keeps), Liquid that does not
 * parse (naming the stage and field).
 */
export async function entryIssues(
  entries: readonly StageEntry[],
  { current, stageNames, pointer, liquid }: EntryContext,
): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const byId = new Map(current.map((r) => [String(r.id), r]));
  const destroyed = new Set(entries.filter((e) => e.id && e._destroy).map((e) => e.id));
  const kept = current.filter((r) => !destroyed.has(String(r.id)));
  const taken = new Set(kept.map((r) => String(r.communication_stage_id)));
  const seen = new Set<string>();
  let total = kept.reduce((n, r) => n + contentOf(r), 0);
  let count = kept.length;
  let tooBig = false;
  const toParse: { at: string; stageName: string; field: ContentField; source: string }[] = [];
  entries.forEach((entry, i) => {
    const at = `${pointer}/${i}`;
    let stageName: string;
    if (entry.id !== undefined) {
      const row = byId.get(entry.id);
      if (!row) {
        issues.push({ pointer: `${at}/id`, code: 'unknown_child', detail: `Entry ${i}: no stage of this template has id "${entry.id}".` });
        return;
      }
      if (seen.has(entry.id)) {
        issues.push({
          pointer: `${at}/id`,
          code: 'duplicate_entry',
          detail: `Entry ${i}: an earlier entry already names the stage entry "${entry.id}"; name each at most once.`,
        });
        return;
      }
      seen.add(entry.id);
      stageName = String(row.communication_stage_name);
      if (entry._destroy) return;
      // The fields it sends replace the row's (kept, so counted in the total).
      for (const f of CONTENT_FIELDS) if (f in entry) total += length(entry[f]) - length(row[f]);
    } else {
      const stageId = entry.communication_stage_id!;
      const name = stageNames.get(stageId);
      if (name === undefined) {
        issues.push({
          pointer: `${at}/communication_stage_id`,
          code: 'not_found',
          detail: `Entry ${i}: no communications stage of this team has id "${stageId}".`,
        });
        return;
      }
      if (taken.has(stageId)) {
        issues.push({
          pointer: `${at}/communication_stage_id`,
          code: 'duplicate_stage',
          detail: `Entry ${i}: the template already has content for stage "${name}"; change that entry by its id.`,
        });
        return;
      }
      taken.add(stageId);
      stageName = name;
      total += contentOf(entry);
      count += 1;
      if (count === TEMPLATE_MAX.entries + 1) {
        issues.push({
          pointer: at,
          code: 'too_many_entries',
          detail: `Entry ${i}: a template may have content for at most ${TEMPLATE_MAX.entries} stages.`,
        });
      }
    }
    if (!tooBig && total > TEMPLATE_MAX.content) {
      tooBig = true;
      issues.push({
        pointer: at,
        code: 'template_too_large',
        detail: `Entry ${i}: with it the template's stages would hold ${total} characters; a template may hold at most ${TEMPLATE_MAX.content}.`,
      });
    }
    for (const field of CONTENT_FIELDS) {
      const source = entry[field];
      if (typeof source === 'string') toParse.push({ at: `${at}/${field}`, stageName, field, source });
    }
  });
  if (!toParse.length) return issues;
  try {
    const { errors } = await liquid.parse(toParse.map((p) => p.source));
    toParse.forEach(({ at, stageName, field }, k) => {
      if (errors[k] !== null)
        issues.push({
          pointer: at,
          code: 'invalid_liquid',
          detail: `Stage "${stageName}", ${field}: the Liquid does not parse: ${errors[k]}`,
        });
    });
  } catch (err) {
    if (!(err instanceof LiquidLimitError)) throw err;
    issues.push({ pointer, code: 'too_costly', detail: `The stages' Liquid could not be checked: ${err.message}.` });
  }
  return issues;
}
