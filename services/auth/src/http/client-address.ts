import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail is converted). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0].toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = text.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The bucket a client address is counted in by the rate limits: an IPv4 address as is
 * (IPv4-mapped IPv6 included), an IPv6 address by its /64, because one subscriber
 * usually holds a whole /64 and could otherwise rotate through 2^64 addresses.
 */
export function addressBucket(address: string | undefined): string {
  if (!address) return 'unknown';
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/**
 * The client's address bucket for this request: `req.ip`, which Express derives from
 * `X-Forwarded-For` only as far as `trust proxy` (TRUST_PROXY) allows.
 */
export function clientAddress(req: Request): string {
  return addressBucket(req.ip ?? req.socket.remoteAddress);
}
