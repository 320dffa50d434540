import { z } from 'zod';
import { ForbiddenError, type ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';

/** The longest note: a page of text, not a log dump (the alert's `data` holds payloads). */
export const MAX_NOTE = 10_000;

const details = z.string().trim().min(1).max(MAX_NOTE);

/** `POST /v1/alerts/{alert_id}/events`: the reference's new_alert_event, a note only. */
export const newNoteSchema = z.strictObject({ kind: z.literal('note'), user_id: z.number().int().nullable().optional(), details });

/** `PATCH /v1/alert_events/{id}`: the reference's update_alert_event (a note's text; `kind` cannot change). */
export const updateNoteSchema = z.strictObject({ user_id: z.number().int().nullable().optional(), details });

const AUDIT_TRAIL =
  "Only notes (kind note) may be edited or deleted: every other alert event is the alert's audit trail, written by the change it records.";

/**
 * A note is changed by its author or by an on-call admin, who moderates the team's
 * timeline (docs/on-call.md, "Timeline and notes"), as a comment is on mature trackers:
 * anyone else who may write alerts may add notes, not rewrite another's words. A note a
 * user wrote is theirs: a team-wide key (no user) changes it only as an admin. A note no
 * user wrote (a team-wide key's, an integration's) is the team's: a caller acting for no
 * user may change it, so a client that wrote a note can correct it. 403 after the kind's
 * 422: a non-note refuses whoever asks.
 */
function assertMayChange(note: Row, ctx: HookContext): void {
  const { principal } = ctx;
  if (principal.on_call_role === 'admin') return;
  const author = note.user_id === null || note.user_id === undefined ? null : Number(note.user_id);
  if (author === (principal.user_id ?? null)) return;
  throw new ForbiddenError("Only a note's author or an on-call admin may change or delete it.", { code: 'not_note_author' });
}

/**
 * Alert events are the alert's audit trail, so only notes change (docs/on-call.md,
 * "Timeline and notes"): another kind is a 422, on PATCH as the reference's
 * updateAlertEvent answers it and on DELETE alike (it is the event that refuses, not the
 * caller's rights: a 403 would say another key could). A note's author is its writer:
 * `user_id` may name only the acting user (a team-wide key, which acts as no one, names none).
 */
export const alertNoteHooks = {
  defaults: (attributes: Row, ctx: HookContext) => ({
    user_id: ctx.principal.user_id,
    ...attributes,
    kind: 'note',
    action: 'created',
    source: 'api',
  }),

  validate(attributes: Row, ctx: HookContext): ValidationIssue[] {
    if (ctx.existing?.kind !== undefined && ctx.existing.kind !== 'note')
      return [{ pointer: '/data', code: 'not_a_note', detail: AUDIT_TRAIL }];
    if (ctx.existing) assertMayChange(ctx.existing, ctx);
    const author = ctx.existing ? ctx.existing.user_id : ctx.principal.user_id;
    if ('user_id' in attributes && (attributes.user_id ?? null) !== (author ?? null))
      return [
        {
          pointer: '/data/attributes/user_id',
          code: 'invalid',
          detail: "user_id: a note's author is the user who wrote it; leave it out.",
        },
      ];
    return [];
  },

  beforeRemove(ctx: HookContext): ValidationIssue[] {
    if (ctx.existing?.kind !== 'note') return [{ pointer: '/data', code: 'not_a_note', detail: AUDIT_TRAIL }];
    assertMayChange(ctx.existing, ctx);
    return [];
  },
};
