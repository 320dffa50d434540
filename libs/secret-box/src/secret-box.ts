import { createCipheriv, createDecipheriv, createHash, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

/** Encrypts values at rest (AES-256-GCM); the key id is stored with the ciphertext. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** The id of the key that seals (the first configured). */
  readonly sealingKeyId: string;
  /** The id of the key a sealed value names. */
  keyIdOf(sealed: string): string;
}

interface Key {
  id: string;
  /**
   * A key object, not the bytes: Node 24's ciphers first try a Buffer key as a key object
   * and throw and catch, 26-36 µs an open against 5 (the dispatcher opens a secret per job).
   */
  key: KeyObject;
}

const keyId = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 8);

function decodeKey(text: string, setting: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 32) throw new Error(`${setting}: each key must be 32 bytes, base64-encoded`);
  return bytes;
}

/** What a box seals; each purpose derives its own development key from the one seed. */
export interface SecretBoxOptions {
  keys: string[];
  devKeySeed?: string;
  /** The setting holding `keys`, named in errors; default WEBHOOK_SECRET_KEYS. */
  setting?: string;
  /** HKDF info of the development key; default the webhooks' endpoint secrets. */
  purpose?: string;
}

/**
 * A box over `keys` (base64, 32 bytes each; the first seals, all open, so keys can
 * rotate). Without keys, one is derived from `devKeySeed` with HKDF, so a local system
 * needs no extra setting; the configs refuse that in production (NODE_ENV=production
 * requires the keys setting). A distinct `purpose` keeps two services sharing a seed
 * from sharing a key.
 */
export function createSecretBox(options: SecretBoxOptions): SecretBox {
  const setting = options.setting ?? 'WEBHOOK_SECRET_KEYS';
  if (!options.keys.length && options.devKeySeed === undefined) throw new Error(`${setting} is not set and there is no DEV_KEY_SEED`);
  const raw = options.keys.length
    ? options.keys.map((k) => decodeKey(k, setting))
    : [Buffer.from(hkdfSync('sha256', options.devKeySeed as string, 'firewatch', options.purpose ?? 'webhooks/endpoint-secrets/v1', 32))];
  const keys: Key[] = raw.map((bytes) => ({ id: keyId(bytes), key: createSecretKey(bytes) }));
  const byId = new Map(keys.map((k) => [k.id, k]));
  return {
    sealingKeyId: keys[0].id,
    keyIdOf: (sealed) => sealed.split(':')[1] ?? '',
    seal(plain) {
      const key = keys[0];
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key.key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', key.id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      const [version, id, iv, tag, body] = sealed.split(':');
      const key = byId.get(id);
      if (version !== 'v1' || !key) throw new Error(`value sealed with an unknown key (${id}); add it to ${setting}`);
      const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
