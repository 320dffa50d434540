import { createHmac } from 'node:crypto';
import { signingKey } from '../endpoints/webhook-secret.js';

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the decoded `whsec_`
 * secret (Standard Webhooks 1.0). `body` must be the exact bytes sent.
 */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The Standard Webhooks headers of one attempt (the timestamp is the attempt's, the id the delivery's). */
export function webhookHeaders(secret: string, deliveryId: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, deliveryId, timestamp, body),
  };
}
