/**
 * The texts stored as an attempt's `error` (and the delivery's `last_error`), which every
 * reader of the endpoint sees. They name the class of failure only: the detailed message
 * (host names, resolved addresses, certificate names) goes to the server log, so deliveries
 * cannot be used to map internal names to addresses (docs/webhooks.md, "Delivery rules").
 */
export const ATTEMPT_ERRORS = {
  notAllowed: 'destination not allowed',
  notResolved: 'host not found',
  refused: 'connection refused',
  reset: 'connection reset',
  unreachable: 'destination unreachable',
  tls: 'TLS handshake failed',
  invalidUrl: 'invalid URL',
  internal: 'internal error; see the dispatcher log',
  failed: 'request failed',
} as const;

const BY_CODE: Record<string, string> = {
  EADDRREFUSED: ATTEMPT_ERRORS.notAllowed,
  ENOTFOUND: ATTEMPT_ERRORS.notResolved,
  EAI_AGAIN: ATTEMPT_ERRORS.notResolved,
  EAI_NODATA: ATTEMPT_ERRORS.notResolved,
  EAI_FAIL: ATTEMPT_ERRORS.notResolved,
  ECONNREFUSED: ATTEMPT_ERRORS.refused,
  ECONNRESET: ATTEMPT_ERRORS.reset,
  EPIPE: ATTEMPT_ERRORS.reset,
  ECONNABORTED: ATTEMPT_ERRORS.reset,
  EHOSTUNREACH: ATTEMPT_ERRORS.unreachable,
  ENETUNREACH: ATTEMPT_ERRORS.unreachable,
  EHOSTDOWN: ATTEMPT_ERRORS.unreachable,
};

// Certificate problems carry codes such as CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID
// or DEPTH_ZERO_SELF_SIGNED_CERT, and their messages name the hosts in the certificate.
const TLS_CODE = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** The stored text for a failed request, from the error's code. Unknown codes get a generic text. */
export function publicAttemptError(err: { code?: unknown }): string {
  const code = typeof err.code === 'string' ? err.code : '';
  return BY_CODE[code] ?? (TLS_CODE.test(code) ? ATTEMPT_ERRORS.tls : ATTEMPT_ERRORS.failed);
}
