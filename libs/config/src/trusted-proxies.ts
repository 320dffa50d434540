import { isIP } from 'node:net';
import { z } from 'zod';

/** Names proxy-addr (Express's `trust proxy`) knows for whole ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops in front of a process may name the client in `X-Forwarded-For`: unset or
 * `false` trusts none (the socket address is the client); a whole number trusts that many
 * hops from the process outwards; otherwise a comma-separated list of addresses, CIDR
 * ranges or `loopback`/`linklocal`/`uniquelocal`. "Trust everything" is refused, because
 * it lets any client choose its own address. The value is what Express's `trust proxy`
 * setting takes.
 */
/** What Express's `trust proxy` takes: no hop, a hop count, or addresses and ranges. */
export type TrustedProxies = false | number | string[];

export const trustedProxies = z
  .string()
  .optional()
  .transform((value, ctx): TrustedProxies => {
    const v = value?.trim().toLowerCase();
    if (v === undefined || v === 'false' || v === '0') return false;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count must be at most 10' });
      return z.NEVER;
    }
    if (v === 'true' || v === '*') {
      ctx.addIssue({ code: 'custom', message: 'trusting every hop lets clients choose their address; give a hop count or CIDR list' });
      return z.NEVER;
    }
    const entries = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (bad.length || entries.length === 0) {
      ctx.addIssue({ code: 'custom', message: `not an address or CIDR range: ${bad.join(', ') || '(empty)'}` });
      return z.NEVER;
    }
    return entries;
  });
