import { UnauthorizedError, ValidationError } from '@firewatch/errors';
import type { Row } from '@firewatch/resource-kit';
import { sourceSecretMatches } from '../alert-sources/source-secret.js';
import type { AlertIntake, IntakeResult } from './alert-intake.js';
import type { SourceStore } from './alerts-in.deps.js';
import { mapPayload } from './payload-mapping.js';
import { UnmappablePayload, type Intent } from './payload-fields.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const keyOf = (intent: Intent) => (intent.kind === 'resolve' ? intent.key : (intent.alert.deduplication_key ?? ''));

/** What one accepted payload did. */
export interface IngestionOutcome {
  alerts: IntakeResult[];
  ignored?: 'source_disabled';
}

function refusedSecret(): UnauthorizedError {
  // One answer for an unknown source and a wrong secret: a guess learns nothing of which.
  return new UnauthorizedError("The alert source's secret is missing or wrong.", {
    code: 'invalid_source_secret',
    headers: { 'WWW-Authenticate': 'Bearer realm="firewatch-ingest"' },
  });
}

/**
 * Alert ingestion (docs/on-call.md, "Ingestion"): a monitoring tool's payload, presented
 * with its source's secret, becomes alerts through the source's format and template and
 * the intake's deduplication, all in one transaction, so what is answered 202 is
 * committed. What cannot be used is refused (4xx) and noted on the source.
 */
export function createAlertIngestion({ sources, intake }: { sources: SourceStore; intake: AlertIntake }) {
  return {
    /** The source `id` names when `secret` is its secret; 401 otherwise, whichever is wrong. */
    async authenticate(id: string, secret: string | undefined): Promise<Row> {
      if (!secret || !UUID.test(id)) throw refusedSecret();
      const source = await sources.find(id.toLowerCase());
      if (!source || !sourceSecretMatches(secret, source.secret_hash as Buffer)) throw refusedSecret();
      return source;
    },

    /** Notes why a payload of the source was refused: `last_error_*` through the API. */
    refused: (source: Row, message: string) => sources.failed(String(source.id), message),

    async ingest(source: Row, payload: unknown): Promise<IngestionOutcome> {
      // The reference: "Disabled sources do not create alerts from incoming events."
      if (!source.enabled) return { alerts: [], ignored: 'source_disabled' };
      let intents;
      try {
        intents = mapPayload(source, payload);
      } catch (error) {
        if (!(error instanceof UnmappablePayload)) throw error;
        await sources.failed(String(source.id), error.message);
        throw new ValidationError([{ pointer: '/', code: 'unmappable_payload', detail: error.message }]);
      }
      const origin = {
        team_id: Number(source.team_id),
        source: String(source.source_type),
        alert_source_id: String(source.id),
        user_id: null,
      };
      const [only] = intents;
      // The source's note claimed by a deduplicated alert's write that then wrote nothing: the transaction's to write.
      let claimed = false;
      if (intents.length === 1 && only.kind === 'alert') {
        // A deduplicated alert commits without a transaction when nothing races it (alert-intake.ts).
        const again = await intake.receiveAgain(origin, only.alert, () => (claimed = sources.due(origin.alert_source_id)));
        if (again) return { alerts: [again] };
      }
      const alerts = await intake.transaction(async (tx) => {
        const results: IntakeResult[] = [];
        // Keys in one order: two payloads locking the same keys then wait for each other, never deadlock.
        const ordered = [...intents].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
        // Several alerts: every lock up front, in one order (a single alert's two cannot close a cycle).
        if (ordered.length > 1)
          await intake.lockAll(
            tx,
            origin,
            ordered.map(keyOf).filter((key) => key !== ''),
            ordered.flatMap((intent) => (intent.kind === 'alert' ? [intent.alert] : [])),
          );
        for (const intent of ordered)
          results.push(
            intent.kind === 'alert'
              ? await intake.receive(tx, origin, intent.alert)
              : await intake.resolveByKey(tx, origin, intent.key, intent.details),
          );
        // In the transaction: a failure here after the commit would answer an error for alerts already stored.
        await sources.received(tx, String(source.id), claimed);
        return results;
      });
      return { alerts };
    },
  };
}

export type AlertIngestion = ReturnType<typeof createAlertIngestion>;
