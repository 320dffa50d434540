import { z } from 'zod';
import { jsonConfig, privateJwk, publicJwks } from './jwk-fields.js';
import { trustedProxies } from './trusted-proxies.js';

/** Reusable field schemas for common variable shapes. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: () => z.url(),
  /** A secret of at least 32 characters; shorter ones are refused rather than padded. */
  secret: () => z.string().min(32, 'must be at least 32 characters'),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  logLevel: () => z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
  list: () =>
    z
      .string()
      .optional()
      .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
  trustedProxies: () => trustedProxies,
  /** A private JWK (JSON) of an asymmetric key: OKP Ed25519 or EC P-256. */
  privateJwk: () => jsonConfig(privateJwk),
  /** A JWKS (JSON, or a single JWK) of public keys only: a private member is refused. */
  publicJwks: () => jsonConfig(publicJwks),
};
