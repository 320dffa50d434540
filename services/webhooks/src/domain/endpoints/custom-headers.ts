import { z } from 'zod';

export const MAX_CUSTOM_HEADERS = 10;
const NAME_MAX = 256;
const VALUE_MAX = 8192;
// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, spaces, tabs and obs-text; no CR, LF or NUL (header injection).
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Headers the dispatcher sets itself or that belong to the connection: never overridable. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'host',
  'user-agent',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'date',
  'via',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);
const RESERVED_PREFIXES = ['webhook-', 'x-firewatch-', ':'];

/** True when a custom header may not use `name` (case-insensitive). */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p));
}

const header = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(NAME_MAX)
    .regex(TOKEN, "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)")
    .refine((n) => !isReservedHeader(n), 'is a reserved header name (content-type, host, user-agent, webhook-*, hop-by-hop, ...)'),
  value: z.string().max(VALUE_MAX).regex(FIELD_VALUE, 'must not contain control characters such as CR or LF'),
});

/** `custom_headers`: at most 10, no reserved or repeated names; null clears them. */
export const customHeadersSchema = z
  .array(header)
  .max(MAX_CUSTOM_HEADERS)
  .nullable()
  .transform((v) => v ?? [])
  .refine((hs) => new Set(hs.map((h) => h.name.toLowerCase())).size === hs.length, 'names a header more than once');

export type CustomHeader = { name: string; value: string };
