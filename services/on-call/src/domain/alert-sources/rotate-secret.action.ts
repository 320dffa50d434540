import { ref } from '@firewatch/openapi';
import { defineAction } from '@firewatch/resource-kit';
import { generateSourceSecret } from './source-secret.js';

/**
 * `POST /v1/alert_sources/{id}/rotate_secret`: a new ingestion secret, answered whole this
 * once; the old one stops working when the write commits (a monitoring tool still sending
 * it meets 401 until it is given the new one). Emits `alert_source.updated`.
 */
export const rotateSecretAction = defineAction({
  name: 'rotate_secret',
  on: 'item',
  method: 'post',
  capabilities: ['update'],
  summary: "Rotate an alert source's ingestion secret",
  response: { schema: ref('alert_sources_response'), description: 'the source, its new secret whole' },
  async run({ record, resource }) {
    const secret = generateSourceSecret();
    const updated = await resource.update(record!, { secret });
    return { document: { data: { ...updated, attributes: { ...updated.attributes, secret } } }, secret: true };
  },
});
