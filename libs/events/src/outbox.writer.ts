import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { currentRequestId } from '@firewatch/logger';
import { currentTraceparent, withSpan } from '@firewatch/tracing';
import { isEventType, isInternalEventType } from './event-catalog.js';
import type { EventEnvelope, EventInput } from './event-envelope.js';
import { relayInProcess, wakeRelaysOnCommit } from './outbox-commits.js';
import { OUTBOX_CHANNEL, OUTBOX_TABLE } from './outbox.migration.js';
import { preparedName, SENT_WITH_NEXT } from './pipelined-transaction.js';

const INSERT_CHUNK = 1000;

function toEnvelope(input: EventInput, requestId: string | undefined, traceparent: string | undefined): EventEnvelope {
  // Both are programming errors, not client input: fail loudly inside the write's transaction.
  if (!isEventType(input.type) && !isInternalEventType(input.type))
    throw new Error(`Unknown event type "${input.type}": add it to EVENT_TYPES first`);
  if (!Number.isInteger(input.team_id)) throw new Error(`Event ${input.type} needs an integer team_id`);
  return {
    id: randomUUID(),
    type: input.type,
    occurred_at: (input.occurred_at ?? new Date()).toISOString(),
    team_id: input.team_id,
    // undefined would vanish from the JSON and leave consumers an envelope without data.
    data: input.data ?? null,
    // The request (and trace) that caused the event, when there is one: operators follow it across services.
    ...(requestId && { request_id: requestId }),
    ...(traceparent && { traceparent }),
  };
}

/**
 * Records events in the outbox as part of `trx`, so they exist exactly when the write
 * that caused them commits, and wakes this process's relays once it has (never on a
 * failure; outbox-commits.ts says why not a `NOTIFY`), or, in a process that runs none
 * (a CLI), sends `NOTIFY firewatch_outbox`, which PostgreSQL delivers on commit. Rows of one call get increasing
 * `seq` in input order. `alongside`:
 * data-modifying statements (inserts, updates) of the same transaction sent in the same
 * statement as the (last) outbox rows, each run to completion by PostgreSQL: a write and
 * its event in one round trip.
 *
 * @throws Error when a type is in neither `EVENT_TYPES` nor `INTERNAL_EVENT_TYPES`, or `team_id` is not an integer.
 */
export async function writeEvents(
  trx: Knex.Transaction | Knex,
  inputs: readonly EventInput[],
  alongside: readonly (Knex.QueryBuilder | Knex.Raw)[] = [],
): Promise<EventEnvelope[]> {
  if (inputs.length === 0) {
    // Nothing for the outbox, but the caller's writes are still theirs to have made (one statement each).
    for (const write of alongside) await write;
    return [];
  }
  return withSpan('outbox write', { attributes: { 'firewatch.events': inputs.length } }, () => insertEvents(trx, inputs, alongside));
}

async function insertEvents(
  trx: Knex.Transaction | Knex,
  inputs: readonly EventInput[],
  alongside: readonly (Knex.QueryBuilder | Knex.Raw)[],
): Promise<EventEnvelope[]> {
  const requestId = currentRequestId();
  const traceparent = currentTraceparent();
  const envelopes = inputs.map((input) => toEnvelope(input, requestId, traceparent));
  // Chunks keep each INSERT far below PostgreSQL's 65535 bind parameters (bulk upserts emit many events).
  for (let i = 0; i < envelopes.length; i += INSERT_CHUNK) {
    const chunk = envelopes.slice(i, i + INSERT_CHUNK);
    const insert = outboxInsert(trx, chunk, '');
    const last = i + INSERT_CHUNK >= envelopes.length;
    // Where no relay runs (a CLI), the relays elsewhere are told by NOTIFY on commit (outbox-commits.ts).
    const notify = last && !relayInProcess();
    // The last chunk, a notification and the caller's own writes travel as one statement: round trips less per write.
    // Nothing reads their answer: in a pipelined transaction they go with its next statement (its COMMIT).
    if (last && (alongside.length || notify)) {
      const more = alongside.map((_, n) => `, alongside_${n} as (?)`).join('');
      await trx
        .raw(`with inserted as (?)${more} select ${notify ? `pg_notify('${OUTBOX_CHANNEL}', '')` : '1'}`, [insert, ...alongside])
        .options({ [SENT_WITH_NEXT]: true });
    } else {
      // A one-row insert (a write's event) is prepared: PostgreSQL parses and plans it once per connection.
      const name = chunk.length === 1 ? preparedName(trx, insertText(1, '')) : undefined;
      await insert.options(name === undefined ? { [SENT_WITH_NEXT]: true } : { [SENT_WITH_NEXT]: true, name });
    }
  }
  wakeRelaysOnCommit(trx);
  return envelopes;
}

/**
 * The INSERT of `envelopes` into the outbox, raw SQL (knex's building of it was a visible
 * share of a busy writer's CPU); `where` (SQL text, may be empty) filters the rows inserted.
 */
function outboxInsert(trx: Knex.Transaction | Knex, envelopes: readonly EventEnvelope[], where: string): Knex.Raw {
  const bindings: unknown[] = [];
  for (const e of envelopes) bindings.push(e.id, e.type, e.team_id, JSON.stringify(e));
  return trx.raw(insertText(envelopes.length, where), bindings as Knex.ValueDict[]);
}

// The texts of one-row inserts, the writes' usual case (a create's event), built once.
const oneRowTexts = new Map<string, string>();

function insertText(rows: number, where: string): string {
  const cached = rows === 1 ? oneRowTexts.get(where) : undefined;
  if (cached !== undefined) return cached;
  const values = Array.from({ length: rows }, () => '(?::uuid, ?::text, ?::integer, ?::jsonb)').join(', ');
  const text = `insert into "${OUTBOX_TABLE}" (id, type, team_id, payload) select * from (values ${values}) as v (id, type, team_id, payload) ${where}`;
  if (rows === 1) oneRowTexts.set(where, text);
  return text;
}

/**
 * {@link writeEvents} on a condition, as one statement: `guard`, a data-modifying statement
 * with RETURNING (an UPDATE of a row as it was read, say), runs first; only when it returns
 * a row are the outbox rows written. The statements `alongside` run in the same statement
 * and may read `guard`'s rows by that name (`insert ... select ... from guard`) to be
 * conditional too. Returns the envelopes, or null when `guard` returned no row. Outside a
 * transaction the whole commits or fails as one: a write and its events without BEGIN and
 * COMMIT. At most 1000 events.
 *
 * @throws Error as {@link writeEvents}, and when given more than 1000 events.
 */
export async function writeEventsIf(
  trx: Knex.Transaction | Knex,
  inputs: readonly EventInput[],
  guard: Knex.Raw | Knex.QueryBuilder,
  alongside: readonly (Knex.Raw | Knex.QueryBuilder)[] = [],
): Promise<EventEnvelope[] | null> {
  if (inputs.length > INSERT_CHUNK) throw new Error(`writeEventsIf takes at most ${INSERT_CHUNK} events`);
  return withSpan('outbox write', { attributes: { 'firewatch.events': inputs.length } }, () =>
    insertEventsIf(trx, inputs, guard, alongside),
  );
}

async function insertEventsIf(
  trx: Knex.Transaction | Knex,
  inputs: readonly EventInput[],
  guard: Knex.Raw | Knex.QueryBuilder,
  alongside: readonly (Knex.Raw | Knex.QueryBuilder)[],
): Promise<EventEnvelope[] | null> {
  const requestId = currentRequestId();
  const traceparent = currentTraceparent();
  const envelopes = inputs.map((input) => toEnvelope(input, requestId, traceparent));
  const guarded = 'where exists (select from guard)';
  const insert = envelopes.length ? [outboxInsert(trx, envelopes, guarded)] : [];
  const notify = envelopes.length > 0 && !relayInProcess();
  const ctes = [...insert, ...alongside].map((_, n) => `, w${n} as (?)`).join('');
  const { rows } = (await trx.raw(
    `with guard as (?)${ctes} select exists (select from guard) as done${notify ? `, (select pg_notify('${OUTBOX_CHANNEL}', '') where exists (select from guard))` : ''}`,
    [guard, ...insert, ...alongside],
  )) as { rows: { done: boolean }[] };
  if (!rows[0]?.done) return null;
  if (envelopes.length) wakeRelaysOnCommit(trx);
  return envelopes;
}

/** {@link writeEvents} for a single event (and its writes `alongside`); returns its envelope. */
export async function writeEvent(
  trx: Knex.Transaction | Knex,
  input: EventInput,
  alongside: readonly (Knex.QueryBuilder | Knex.Raw)[] = [],
): Promise<EventEnvelope> {
  const [envelope] = await writeEvents(trx, [input], alongside);
  return envelope;
}
