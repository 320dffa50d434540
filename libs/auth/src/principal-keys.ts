import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';

/** A new principal signing key: the private JWK for the gateway, its public JWKS for the services. */
export async function generatePrincipalKeys(): Promise<{ privateKey: JWK; publicKeys: JSONWebKeySet }> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    privateKey: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' },
    publicKeys: { keys: [{ ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }] },
  };
}
