import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

/**
 * The unit a client is counted in by the per-address limits (guessing throttle, logins,
 * registrations): its IPv4 address (IPv4-mapped IPv6 included), or the /64 of its IPv6
 * address, since one subscriber usually holds a whole /64 and could otherwise rotate
 * through 2^64 addresses. Anything unparsable is its own bucket.
 */
export function addressBucket(address: string | undefined): string {
  if (!address) return 'unknown';
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/**
 * The address bucket of the client behind `req`: Express's `req.ip`, which comes from
 * `X-Forwarded-For` only as far as the app's `trust proxy` setting (a hop count or CIDR
 * list from `env.trustedProxies()`) allows, else the socket's address.
 */
export function clientAddress(req: IncomingMessage & { ip?: string }): string {
  return addressBucket(req.ip ?? req.socket.remoteAddress);
}
