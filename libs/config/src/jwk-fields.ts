import { z } from 'zod';

const asymmetricJwk = z.looseObject({
  kty: z.enum(['OKP', 'EC'], { error: 'must be an OKP (Ed25519) or EC (P-256) key' }),
  crv: z.enum(['Ed25519', 'P-256'], { error: 'must be on the Ed25519 or P-256 curve' }),
  x: z.string().min(1),
  kid: z.string().min(1).optional(),
});
export const privateJwk = asymmetricJwk
  .extend({ d: z.string().min(1, 'a private key needs its d member') })
  .refine((k) => k.kty !== 'EC' || typeof k.y === 'string', 'an EC key needs its y member');
const publicJwk = asymmetricJwk.refine((k) => !('d' in k), 'holds a private key: give only the public half');
export const publicJwks = z.union([z.object({ keys: z.array(publicJwk).min(1) }), publicJwk.transform((k) => ({ keys: [k] }))]);

/** A variable holding JSON, checked against `schema`. */
export function jsonConfig<T extends z.ZodType>(schema: T) {
  return z.string().transform((text, ctx): z.infer<T> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: parsed.error.issues.map((i) => i.message).join('; ') });
    return z.NEVER;
  });
}
