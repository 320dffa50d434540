import type { Request } from 'express';
import { PRINCIPAL_HEADER, SOURCE_SECRET_HEADER, type PrincipalVerifier } from '@firewatch/auth';
import { UnauthorizedError } from '@firewatch/errors';

/**
 * The record id of an `/ingest/...` request and the secret its caller gave, once the
 * gateway's ingestion principal for exactly this method, path and record is verified: alert
 * sources' payloads and heartbeats' pings are reached only through the gateway.
 */
export async function ingestionCaller(req: Request, principals: PrincipalVerifier): Promise<{ id: string; secret: string | undefined }> {
  const id = req.params.id as string;
  const header = req.headers[PRINCIPAL_HEADER];
  const principal = await principals.verifyIngestion(typeof header === 'string' ? header : undefined, {
    method: req.method,
    path: req.path,
  });
  if (!principal || principal.source_id !== id.toLowerCase())
    throw new UnauthorizedError('Requests must come through the gateway.', { code: 'no_principal' });
  const secret = req.headers[SOURCE_SECRET_HEADER];
  return { id, secret: typeof secret === 'string' ? secret : undefined };
}
