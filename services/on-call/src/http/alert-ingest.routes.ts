import express, { Router, type Request, type RequestHandler } from 'express';
import type { PrincipalVerifier } from '@firewatch/auth';
import { ingestionCaller } from './ingestion-caller.js';
import { BadRequestError, HttpError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@firewatch/errors';
import type { AlertRecorder } from '@firewatch/metrics';
import type { AlertIngestion } from '../domain/alerts-in/alert-ingestion.js';

/** Where monitoring tools' payloads arrive, through the gateway (it never forwards `Authorization`). */
export const INGEST_PATH = '/ingest/alert_sources/:id';
/** Tells the gateway the source's own limit, payloads a minute (gateway/src/domain/ingest-limits.ts); never reaches the tool. */
export const INGEST_LIMIT_HEADER = 'x-firewatch-ingest-limit';

/** A refusal's reason for the metrics: its error code (a 422's first issue's), from the fixed set this route and ingestion use. */
const reasonOf = (error: HttpError) => (error instanceof ValidationError ? (error.issues[0]?.code ?? error.code) : error.code);

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** The body as JSON, at most `limit` bytes, read by `parse` (express.json made once, not per payload); a body-parser error as the 4xx it means. */
function readJson(req: Request, limit: number, parse: RequestHandler): Promise<unknown> {
  return new Promise((resolve, reject) => {
    parse(req, req.res!, (err?: unknown) => {
      if (!err) return resolve(req.body);
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return reject(new PayloadTooLargeError(`The payload exceeds ${limit} bytes.`));
      if (type === 'entity.parse.failed') return reject(new BadRequestError('The payload is not valid JSON.', { code: 'invalid_json' }));
      // A body that does not decompress as its Content-Encoding says, or is shorter than its Content-Length.
      if ((err as { status?: number }).status === 400)
        return reject(
          new BadRequestError('The payload could not be read as its Content-Encoding and length say.', { code: 'unreadable_body' }),
        );
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}

/**
 * `POST /ingest/alert_sources/{id}` (docs/on-call.md, "Ingestion"): reached only through
 * the gateway, which signs an ingestion principal for this path and passes the source's
 * secret. The secret is judged before the body is read; after that, every refusal
 * (media type, size, JSON, a payload that maps to no alert) is noted on the source.
 * 202 only once the alerts are committed. `recorder` counts what each payload made and
 * why one was refused (docs/operations.md, "Alert ingestion metrics").
 */
export function createAlertIngestRouter({
  principals,
  ingestion,
  bodyLimitBytes,
  recorder,
}: {
  principals: PrincipalVerifier;
  ingestion: AlertIngestion;
  bodyLimitBytes: number;
  recorder?: AlertRecorder;
}): Router {
  const router = Router();
  const parse = express.json({ type: () => true, limit: bodyLimitBytes, strict: false });
  router.post(INGEST_PATH, async (req, res) => {
    const { id, secret } = await ingestionCaller(req, principals);
    const source = await ingestion.authenticate(id, secret);
    // On every answer from here on, refusals included: the gateway counts the source's next payloads against it.
    if (source.rate_limit_per_minute) res.setHeader(INGEST_LIMIT_HEADER, String(source.rate_limit_per_minute));
    const type = String(source.source_type);
    let payload: unknown;
    try {
      if (!JSON_TYPE.test(req.headers['content-type'] ?? ''))
        throw new UnsupportedMediaTypeError('Send the payload as JSON (Content-Type: application/json).');
      payload = await readJson(req, bodyLimitBytes, parse);
    } catch (error) {
      if (error instanceof Error) await ingestion.refused(source, error.message);
      if (error instanceof HttpError) recorder?.refused(type, reasonOf(error));
      throw error;
    }
    const outcome = await ingestion.ingest(source, payload).catch((error: unknown) => {
      if (error instanceof HttpError && error.status < 500) recorder?.refused(type, reasonOf(error));
      throw error;
    });
    if (outcome.ignored) recorder?.refused(type, outcome.ignored);
    for (const r of outcome.alerts) recorder?.ingested(type, r.outcome);
    res.status(202).json({
      data: outcome.alerts.flatMap((r) => (r.alert ? [{ type: 'alerts', id: r.alert.id }] : [])),
      meta: { outcomes: outcome.alerts.map((r) => r.outcome), ...(outcome.ignored ? { ignored: outcome.ignored } : {}) },
    });
  });
  return router;
}
