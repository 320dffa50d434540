import { isIP } from 'node:net';

/**
 * Which proxies in front of auth are trusted to report the client address
 * (`X-Forwarded-For`) and scheme: none (`false`), the nearest `n` hops, or the proxies
 * at these addresses/CIDRs. Passed to Express's `trust proxy`, so `req.ip` is the
 * right-most address no trusted proxy vouches for.
 */
export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function validEntry(entry: string): boolean {
  if (NAMED.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * Parses `TRUST_PROXY`: unset, `false` or `0` = trust none; a hop count (`1`); or a
 * comma-separated list of addresses, CIDRs and the names loopback / linklocal /
 * uniquelocal. `true` is refused: it trusts the whole X-Forwarded-For chain, so any
 * client could choose its own address and walk past the rate limits.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const value = (text ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new Error(
      'true would trust every X-Forwarded-For hop (clients could pick their own address); give the number of proxies ' +
        'in front of auth (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,192.168.1.1)',
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 16) throw new Error('a hop count must be at most 16');
    return hops;
  }
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = entries.filter((e) => !validEntry(e));
  if (bad.length || !entries.length) {
    throw new Error(`expected false, a hop count or a list of addresses/CIDRs; not understood: ${bad.join(', ') || value}`);
  }
  return entries;
}
