import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createSecretBox } from '../src/index.js';

const seed = 'a-development-seed-of-some-length';

describe('createSecretBox', () => {
  it('derives a key per purpose from one seed, so two services sharing a seed cannot open each other', () => {
    const webhooks = createSecretBox({ keys: [], devKeySeed: seed });
    const secrets = createSecretBox({ keys: [], devKeySeed: seed, purpose: 'incident-config/secrets/v1' });
    const sealed = secrets.seal('value');
    expect(createSecretBox({ keys: [], devKeySeed: seed, purpose: 'incident-config/secrets/v1' }).open(sealed)).toBe('value');
    expect(() => webhooks.open(sealed)).toThrow(/unknown key/);
  });

  it('names its setting in errors', () => {
    expect(() => createSecretBox({ keys: ['c2hvcnQ='], setting: 'SECRET_ENCRYPTION_KEYS' })).toThrow(
      /^SECRET_ENCRYPTION_KEYS: each key must be 32 bytes/,
    );
    expect(() => createSecretBox({ keys: [], setting: 'SECRET_ENCRYPTION_KEYS' })).toThrow(/^SECRET_ENCRYPTION_KEYS is not set/);
    const sealed = createSecretBox({ keys: [randomBytes(32).toString('base64')] }).seal('v');
    expect(() => createSecretBox({ keys: [randomBytes(32).toString('base64')], setting: 'SECRET_ENCRYPTION_KEYS' }).open(sealed)).toThrow(
      /add it to SECRET_ENCRYPTION_KEYS/,
    );
  });

  it('opens with any configured key and seals with the first (rotation)', () => {
    const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')];
    const sealed = createSecretBox({ keys: [oldKey] }).seal('kept');
    const rotated = createSecretBox({ keys: [newKey, oldKey] });
    expect(rotated.open(sealed)).toBe('kept');
    expect(createSecretBox({ keys: [newKey] }).open(rotated.seal('new'))).toBe('new');
    expect(rotated.keyIdOf(rotated.seal('x'))).toBe(rotated.sealingKeyId);
    expect(rotated.keyIdOf(sealed)).not.toBe(rotated.sealingKeyId);
  });

  it('reads and writes the stored format: AES-256-GCM under the raw key bytes, as values sealed before', () => {
    const bytes = randomBytes(32);
    const box = createSecretBox({ keys: [bytes.toString('base64')] });
    const id = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', bytes, iv);
    const body = Buffer.concat([cipher.update('whsec_stored', 'utf8'), cipher.final()]);
    const stored = ['v1', id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    expect(box.open(stored)).toBe('whsec_stored');

    const [version, keyId, sealedIv, tag, sealedBody] = box.seal('sealed now').split(':');
    expect([version, keyId]).toEqual(['v1', id]);
    const decipher = createDecipheriv('aes-256-gcm', bytes, Buffer.from(sealedIv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    expect(Buffer.concat([decipher.update(Buffer.from(sealedBody, 'base64')), decipher.final()]).toString('utf8')).toBe('sealed now');
  });
});
