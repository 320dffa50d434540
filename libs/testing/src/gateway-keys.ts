import { createPrincipalSigner, type Principal } from '@firewatch/auth';

/**
 * A fixed principal signing key for tests only, so suites can play the gateway towards a
 * service without generating keys. Never used outside tests: the private half is public.
 */
export const TEST_PRINCIPAL_KEYS = {
  privateKey: {
    kty: 'OKP',
    crv: 'Ed25519',
    kid: 'test-gateway',
    alg: 'EdDSA',
    x: 'z0TQYRexvl7-0I3zKIExrbJ4E0Aaxrc17z9IZKnnNTY',
    d: 'LUCbuH1Qp9SR66ZIADK2Bqv1p-jpBDvX2d8xZG3q9Vo',
  },
  publicKeys: {
    keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'test-gateway', alg: 'EdDSA', use: 'sig', x: 'z0TQYRexvl7-0I3zKIExrbJ4E0Aaxrc17z9IZKnnNTY' }],
  },
};

const signer = createPrincipalSigner({ privateKey: TEST_PRINCIPAL_KEYS.privateKey, ttlSeconds: 60 });

/**
 * The principal header value the gateway would send to `audience` for this request
 * (`url` may carry a query string; the token binds the path only).
 */
export function signAsGateway(principal: object, audience: string, method: string, url: string): Promise<string> {
  // The path as fetch will send it (percent-encoded), which is what the service checks.
  const path = new URL(url, 'http://service.invalid').pathname;
  return signer.sign(principal as unknown as Principal, { audience, method: method.toUpperCase(), path });
}
