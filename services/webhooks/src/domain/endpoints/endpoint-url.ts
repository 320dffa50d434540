import { z } from 'zod';

/** The longest endpoint URL accepted. */
export const URL_MAX = 2048;

/**
 * Endpoint URLs: absolute https (http too when `allowHttp`, e.g. loopback receivers in
 * tests), no credentials in the URL (use a custom Authorization header) and no
 * fragment. Whether the host resolves to an allowed address is checked at send time,
 * on the address actually connected to.
 */
export function endpointUrlSchema(allowHttp: boolean) {
  return z
    .string()
    .max(URL_MAX)
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be an absolute URL' });
        return;
      }
      const schemes = allowHttp ? ['https:', 'http:'] : ['https:'];
      if (!schemes.includes(url.protocol))
        ctx.addIssue({ code: 'custom', message: allowHttp ? 'must be an http or https URL' : 'must be an https URL' });
      if (url.username || url.password)
        ctx.addIssue({ code: 'custom', message: 'must not carry credentials; send them as a custom header' });
      if (url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a fragment' });
      if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'must name a host' });
    });
}

/**
 * The URL with everything past its host masked: `https://hooks.example.com/****`. A
 * chat service's incoming-webhook URL is a bearer credential in its path or query, so
 * only unrestricted admins reading the API see it whole; `webhooks_endpoint.*` events,
 * which reach receivers and are stored in deliveries, carry this.
 */
export function maskEndpointUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}/****`;
  } catch {
    return '****';
  }
}
