/**
 * Which proxies in front of auth are trusted to report the client address
 * (`X-Forwarded-For`) and scheme: none (`false`), the nearest `n` hops, or the proxies
 * at these addresses/CIDRs (`TRUST_PROXY`, parsed by `env.trustedProxies()` of
 * @firewatch/config, which refuses `true`). Passed to Express's `trust proxy`, so
 * `req.ip` is the right-most address no trusted proxy vouches for.
 */
export type TrustProxy = false | number | string[];
