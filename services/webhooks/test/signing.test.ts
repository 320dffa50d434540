import { createHmac } from 'node:crypto';
import { isReservedHeader } from '../src/domain/endpoints/custom-headers.js';
import { createSecretBox } from '@firewatch/secret-box';
import { signPayload, webhookHeaders, webhookSigningKey } from '../src/domain/deliveries/signature.js';
import { generateSecret, secretProblem } from '../src/domain/endpoints/webhook-secret.js';

describe('Standard Webhooks signing', () => {
  // The e2e suite also checks deliveries with the reference `standardwebhooks` verifier.
  it('signs id.timestamp.body of this attempt with the decoded secret', () => {
    const secret = generateSecret();
    const body = '{"event":{"id":"e1"},"data":null}';
    const now = new Date('2026-01-01T00:00:10Z');
    const headers = webhookHeaders(secret, 'd6f1b7a4-1111-4222-8333-944455556666', body, now);
    expect(headers['webhook-id']).toBe('d6f1b7a4-1111-4222-8333-944455556666');
    expect(headers['webhook-timestamp']).toBe('1767225610');
    const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${headers['webhook-id']}.1767225610.${body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${mac}`);
  });

  it('matches a hand-computed HMAC', () => {
    const key = Buffer.alloc(32, 1);
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{}').digest('base64');
    expect(signPayload(secret, 'msg_1', 1700000000, '{}')).toBe(`v1,${expected}`);
  });

  it('signs the same with the secret as a key object', () => {
    const key = Buffer.alloc(32, 7);
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key).update('msg_2.1700000001.{"a":1}').digest('base64');
    expect(signPayload(webhookSigningKey(secret), 'msg_2', 1700000001, '{"a":1}')).toBe(`v1,${expected}`);
    const now = new Date('2026-01-01T00:00:10Z');
    expect(webhookHeaders(webhookSigningKey(secret), 'd1', '{}', now)).toEqual(webhookHeaders(secret, 'd1', '{}', now));
  });

  it('generates 32-byte whsec_ secrets and judges supplied ones', () => {
    const s = generateSecret();
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(secretProblem(s)).toBeNull();
    expect(secretProblem('abc')).toMatch(/whsec_/);
    expect(secretProblem('whsec_not base64!')).toMatch(/base64/);
    expect(secretProblem(`whsec_${Buffer.alloc(8).toString('base64')}`)).toMatch(/24 to 64/);
  });
});

describe('custom header names', () => {
  it('refuses reserved and hop-by-hop names in any case, allows the rest', () => {
    for (const n of [
      'Content-Type',
      'content-length',
      'HOST',
      'User-Agent',
      'webhook-id',
      'Webhook-Signature',
      'Transfer-Encoding',
      'Connection',
      'TE',
      'X-Firewatch-Principal',
    ]) {
      expect([n, isReservedHeader(n)]).toEqual([n, true]);
    }
    for (const n of ['Authorization', 'X-Api-Key', 'X-Tenant']) expect(isReservedHeader(n)).toBe(false);
  });
});

describe('secret box', () => {
  it('round-trips, detects tampering and opens with a rotated-out key', () => {
    const k1 = Buffer.alloc(32, 1).toString('base64');
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const old = createSecretBox({ keys: [k1], devKeySeed: 'x'.repeat(32) });
    const sealed = old.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    const rotated = createSecretBox({ keys: [k2, k1], devKeySeed: 'x'.repeat(32) });
    expect(rotated.open(sealed)).toBe('whsec_abc');
    expect(rotated.seal('s').split(':')[1]).not.toBe(sealed.split(':')[1]);
    const parts = sealed.split(':');
    parts[4] = Buffer.from('whsec_xyz').toString('base64');
    expect(() => old.open(parts.join(':'))).toThrow();
    expect(() => createSecretBox({ keys: [k2], devKeySeed: 'x'.repeat(32) }).open(sealed)).toThrow(/unknown key/);
  });
});
