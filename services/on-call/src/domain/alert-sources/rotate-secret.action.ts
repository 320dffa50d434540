import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import { generateSourceSecret } from './source-secret.js';

/**
 * `POST /v1/<records>/{id}/rotate_secret`: a new secret, answered whole this once; the old
 * one stops working when the write commits (a monitoring tool or cron job still sending
 * it meets 401 until it is given the new one). Emits `<record>.updated`. Alert sources'
 * (ingestion) and heartbeats' (pings) secrets.
 */
export function secretRotation(options: { type: string; what: string; prefix?: string }) {
  return defineAction({
    name: 'rotate_secret',
    on: 'item',
    method: 'post',
    capabilities: ['update'],
    summary: `Rotate ${options.what}`,
    response: { schema: ref(`${options.type}_response`), description: 'the record, its new secret whole' },
    async run({ record, resource }) {
      const secret = generateSourceSecret(options.prefix);
      const updated = await resource.update(record!, { secret });
      return { document: { data: { ...updated, attributes: { ...updated.attributes, secret } } }, secret: true };
    },
  });
}

export const rotateSecretAction = secretRotation({ type: 'alert_sources', what: "an alert source's ingestion secret" });
