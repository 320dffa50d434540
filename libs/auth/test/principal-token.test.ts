import { generateKeyPairSync } from 'node:crypto';
import { createPrincipalSigner, createPrincipalVerifier, createSystemTokens, generatePrincipalKeys, type Principal } from '../src/index.js';

const principal: Principal = {
  team_id: 7,
  user_id: 3,
  role: 'admin',
  on_call_role: 'user',
  credential: { type: 'api_key', id: 'k1', kind: 'global' },
  capabilities: ['read'],
  scopes: null,
  group_ids: null,
  record_ids: null,
};
const target = { audience: 'incident-config', method: 'GET', path: '/v1/environments/prod' };

describe('principal tokens', () => {
  let keys: Awaited<ReturnType<typeof generatePrincipalKeys>>;
  let other: Awaited<ReturnType<typeof generatePrincipalKeys>>;
  beforeAll(async () => {
    [keys, other] = await Promise.all([generatePrincipalKeys(), generatePrincipalKeys()]);
  });
  const verifierFor = (audience: string, publicKeys = keys.publicKeys) => createPrincipalVerifier({ publicKeys, audience });

  it('round-trips a principal for its service, method and path', async () => {
    const token = await createPrincipalSigner({ privateKey: keys.privateKey }).sign(principal, target);
    expect(await verifierFor('incident-config').verify(token, { method: 'GET', path: '/v1/environments/prod' })).toEqual(principal);
  });

  it('keeps ingestion principals and API principals apart', async () => {
    const signer = createPrincipalSigner({ privateKey: keys.privateKey });
    const path = '/ingest/alert_sources/5b0f3c56-5d0e-4c4e-9e1a-4a7a8f0e2b11';
    const ingestion = { kind: 'ingestion' as const, source_id: '5b0f3c56-5d0e-4c4e-9e1a-4a7a8f0e2b11' };
    const token = await signer.sign(ingestion, { audience: 'on-call', method: 'POST', path });
    const verifier = verifierFor('on-call');
    expect(await verifier.verifyIngestion(token, { method: 'POST', path })).toEqual(ingestion);
    // An ingestion token never stands for an API caller, nor an API token for ingestion.
    expect(await verifier.verify(token, { method: 'POST', path })).toBeNull();
    const api = await signer.sign(principal, { audience: 'on-call', method: 'POST', path });
    expect(await verifier.verifyIngestion(api, { method: 'POST', path })).toBeNull();
    expect(await verifier.verifyIngestion(token, { method: 'POST', path: `${path}x` })).toBeNull();
  });

  it('is refused by another service, for another method or path, and when forged', async () => {
    const signer = createPrincipalSigner({ privateKey: keys.privateKey });
    const token = await signer.sign(principal, target);
    expect(await verifierFor('webhooks').verify(token, { method: 'GET', path: '/v1/environments/prod' })).toBeNull();
    const verifier = verifierFor('incident-config');
    expect(await verifier.verify(token, { method: 'DELETE', path: '/v1/environments/prod' })).toBeNull();
    expect(await verifier.verify(token, { method: 'GET', path: '/v1/environments/other' })).toBeNull();
    const forged = await createPrincipalSigner({ privateKey: other.privateKey }).sign(principal, target);
    expect(await verifier.verify(forged, { method: 'GET', path: '/v1/environments/prod' })).toBeNull();
    expect(await verifier.verify('garbage', { method: 'GET', path: '/v1/environments/prod' })).toBeNull();
    expect(await verifier.verify(undefined, { method: 'GET', path: '/v1/environments/prod' })).toBeNull();
  });

  it('answers a token it verified before without waiting, with the same checks, and nothing else', async () => {
    const signer = createPrincipalSigner({ privateKey: keys.privateKey });
    const token = await signer.sign(principal, target);
    const verifier = verifierFor('incident-config');
    const request = { method: 'GET', path: '/v1/environments/prod' };
    // Not verified yet (or never genuine): undefined, the caller must verify.
    expect(verifier.verifyKnown!(token, request)).toBeUndefined();
    expect(verifier.verifyKnown!('garbage', request)).toBeUndefined();
    expect(verifier.verifyKnown!(undefined, request)).toBeNull();
    expect(await verifier.verify(token, request)).toEqual(principal);
    expect(verifier.verifyKnown!(token, request)).toEqual(principal);
    expect(verifier.verifyKnown!(token, { method: 'DELETE', path: '/v1/environments/prod' })).toBeNull();
    expect(verifier.verifyKnown!(token, { method: 'GET', path: '/v1/environments/other' })).toBeNull();
    // A forged token is never remembered; an ingestion principal is no API caller.
    expect(await verifier.verify('garbage', request)).toBeNull();
    expect(verifier.verifyKnown!('garbage', request)).toBeUndefined();
    const path = '/ingest/alert_sources/5b0f3c56-5d0e-4c4e-9e1a-4a7a8f0e2b11';
    const ingestion = await signer.sign({ kind: 'ingestion', source_id: 'x' }, { audience: 'incident-config', method: 'POST', path });
    expect(await verifier.verifyIngestion(ingestion, { method: 'POST', path })).not.toBeNull();
    expect(verifier.verifyKnown!(ingestion, { method: 'POST', path })).toBeNull();
  });

  it('takes a remembered token for itself only, not for one that ends as it does', async () => {
    const token = await createPrincipalSigner({ privateKey: keys.privateKey }).sign(principal, target);
    const verifier = verifierFor('incident-config');
    const request = { method: 'GET', path: '/v1/environments/prod' };
    expect(await verifier.verify(token, request)).toEqual(principal);
    // Another principal under the same signature: its payload is the admin of team 8.
    const [header, , signature] = token.split('.');
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...payload, p: { ...principal, team_id: 8 } })).toString('base64url'),
      signature,
    ].join('.');
    expect(forged.slice(-100)).toBe(token.slice(-100));
    expect(verifier.verifyKnown!(forged, request)).toBeUndefined();
    expect(await verifier.verify(forged, request)).toBeNull();
    expect(verifier.verifyKnown!(token, request)).toEqual(principal);
  });

  it('forgets a verified token once it expires', async () => {
    // Two seconds, not one: `exp` is whole seconds from the current one, so a one-second token
    // signed late in a second expired within milliseconds (a fresh-clone CI run under load).
    const token = await createPrincipalSigner({ privateKey: keys.privateKey, ttlSeconds: 2 }).sign(principal, target, 'short');
    const verifier = verifierFor('incident-config');
    const request = { method: 'GET', path: '/v1/environments/prod' };
    expect(await verifier.verify(token, request)).toEqual(principal);
    expect(verifier.verifyKnown!(token, request)).toEqual(principal);
    await new Promise((r) => setTimeout(r, 3100));
    expect(verifier.verifyKnown!(token, request)).toBeUndefined();
    expect(await verifier.verify(token, request)).toBeNull();
  });

  it('cannot be signed with what a service holds: the public key', async () => {
    const publicOnly = keys.publicKeys.keys[0];
    expect(publicOnly).not.toHaveProperty('d');
    await expect(createPrincipalSigner({ privateKey: publicOnly }).sign(principal, target)).rejects.toThrow();
  });

  it('refuses a symmetric token even when its key is the public key text', async () => {
    const system = createSystemTokens(JSON.stringify(keys.publicKeys.keys[0]).padEnd(32, ' '));
    const hs256 = await system.sign('gateway');
    expect(await verifierFor('incident-config').verify(hs256, { method: 'GET', path: '/' })).toBeNull();
  });

  it('accepts any key of the set, so the gateway key can rotate', async () => {
    const both = { keys: [...keys.publicKeys.keys, ...other.publicKeys.keys] };
    const token = await createPrincipalSigner({ privateKey: other.privateKey }).sign(principal, target);
    expect(await verifierFor('incident-config', both).verify(token, target)).toEqual(principal);
  });

  it('expires after its lifetime', async () => {
    const token = await createPrincipalSigner({ privateKey: keys.privateKey, ttlSeconds: 1 }).sign(principal, target, 'fresh');
    await new Promise((r) => setTimeout(r, 2100));
    expect(await verifierFor('incident-config').verify(token, target)).toBeNull();
  });

  it('reuses a signed token for the same credential and request only', async () => {
    const signer = createPrincipalSigner({ privateKey: keys.privateKey });
    const a = await signer.sign(principal, target, 'cred-1');
    expect(await signer.sign(principal, target, 'cred-1')).toBe(a);
    expect(await signer.sign(principal, { ...target, method: 'PUT' }, 'cred-1')).not.toBe(a);
    // A different resolution (here: the same key after a demotion) gets its own token.
    expect(await signer.sign({ ...principal, role: 'observer' }, target, 'cred-2')).not.toBe(a);
    expect(await signer.sign({ ...principal, role: 'observer' }, target, 'cred-1')).toBe(a);
  });

  it('signs once for concurrent requests of one credential and request', async () => {
    // ES256 signatures are randomised: two signings of the same claims never give the same token.
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signer = createPrincipalSigner({ privateKey: privateKey.export({ format: 'jwk' }) });
    const tokens = await Promise.all(Array.from({ length: 20 }, () => signer.sign(principal, target, 'cred-1')));
    expect(new Set(tokens).size).toBe(1);
    const verifier = verifierFor('incident-config', { keys: [publicKey.export({ format: 'jwk' })] });
    expect(await verifier.verify(tokens[0], target)).toEqual(principal);
  });

  it('remembers a token per audience and path too, and forgets a signing that failed', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signer = createPrincipalSigner({ privateKey: privateKey.export({ format: 'jwk' }) });
    const a = await signer.sign(principal, target, 'cred-1');
    // A token is bound to its aud and htu: one remembered for another service or path would be refused there.
    expect(await signer.sign(principal, { ...target, audience: 'webhooks' }, 'cred-1')).not.toBe(a);
    expect(await signer.sign(principal, { ...target, path: `${target.path}/other` }, 'cred-1')).not.toBe(a);
    // A claim the signing cannot serialise rejects; the next signing of the same key is not handed that rejection.
    const broken = { ...principal, user_id: 1n } as unknown as Principal;
    const failing = { ...target, path: '/v1/failing' };
    await expect(signer.sign(broken, failing, 'cred-3')).rejects.toThrow();
    await expect(signer.sign(principal, failing, 'cred-3')).resolves.toEqual(expect.any(String));
  });
});

describe('system tokens', () => {
  it('round-trip with the shared secret only', async () => {
    const tokens = createSystemTokens('s'.repeat(32));
    expect(await tokens.verify(await tokens.sign('gateway'))).toBe('gateway');
    expect(await tokens.verify(await createSystemTokens('o'.repeat(32)).sign('gateway'))).toBeNull();
    expect(await tokens.verify('garbage')).toBeNull();
  });
});
