import type { ResourceObject } from '@firewatch/jsonapi';
import { maskEndpointUrl } from './endpoint-url.js';

/**
 * An endpoint as its `webhooks_endpoint.*` events carry it: as the API answers it
 * (secret and header values already masked), but with the URL masked past its host.
 * Events go to every endpoint subscribed to them, are stored in their deliveries and
 * pass through the broker; the whole URL is for admins reading the endpoint itself.
 */
export function endpointEventData(record: ResourceObject): ResourceObject {
  const url = record.attributes.url;
  return typeof url === 'string' ? { ...record, attributes: { ...record.attributes, url: maskEndpointUrl(url) } } : record;
}
