/**
 * Where the gateway hands on-call the token of an alert action link (docs/paging.md,
 * "Notifications"), taken out of the path so no access log or metric label keeps it.
 * Both sides read this one name: a header the gateway set and on-call did not read would
 * turn every link into "not valid".
 */
export const ACTION_TOKEN_HEADER = 'x-firewatch-action-token';

/**
 * Where the gateway hands on-call the secret a monitoring tool or cron job gave (its bearer,
 * or the last segment of a ping URL, never forwarded in the path). One name for both sides,
 * as for {@link ACTION_TOKEN_HEADER}.
 */
export const SOURCE_SECRET_HEADER = 'x-firewatch-source-secret';
