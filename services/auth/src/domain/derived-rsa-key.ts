import { createHmac, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';

/**
 * A 2048-bit RSA key derived deterministically from a secret, for local runs and tests
 * where no signing keys are configured: every replica (and every restart) that shares
 * DEV_KEY_SEED gets the same key, so ID tokens verify across replicas. Node
 * cannot seed its own RSA generator, hence this small prime search (HMAC-SHA256 stream,
 * trial division, Miller-Rabin). Production installs configure OIDC_JWKS instead.
 */

const E = 65537n;
const SMALL_PRIMES = (() => {
  const out: bigint[] = [];
  for (let n = 3; out.length < 300; n += 2) if (out.every((p) => n % Number(p) !== 0)) out.push(BigInt(n));
  return out;
})();

class ByteStream {
  private counter = 0;
  constructor(private readonly key: Buffer) {}
  next(length: number): Buffer {
    const chunks: Buffer[] = [];
    for (let got = 0; got < length; got += 32) {
      chunks.push(createHmac('sha256', this.key).update(`block:${this.counter++}`).digest());
    }
    return Buffer.concat(chunks).subarray(0, length);
  }
}

const toBig = (b: Buffer) => BigInt(`0x${b.toString('hex')}`);

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
  }
  return result;
}

function millerRabin(n: bigint, rounds: number, stream: ByteStream): boolean {
  let d = n - 1n;
  let s = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    s++;
  }
  for (let i = 0; i < rounds; i++) {
    const a = 2n + (toBig(stream.next(128)) % (n - 3n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    let witness = true;
    for (let r = 1; r < s && witness; r++) {
      x = (x * x) % n;
      if (x === n - 1n) witness = false;
    }
    if (witness) return false;
  }
  return true;
}

function prime(bits: number, stream: ByteStream): bigint {
  for (;;) {
    // Top two bits set so that p·q has exactly 2·bits bits; odd.
    const candidate = toBig(stream.next(bits / 8)) | (3n << BigInt(bits - 2)) | 1n;
    if (SMALL_PRIMES.some((p) => candidate % p === 0n)) continue;
    if (candidate % E === 1n) continue;
    if (millerRabin(candidate, 1, stream) && millerRabin(candidate, 24, stream)) return candidate;
  }
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

function b64(n: bigint): string {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return Buffer.from(hex, 'hex').toString('base64url');
}

export interface RsaPrivateJwk {
  kty: 'RSA';
  n: string;
  e: string;
  d: string;
  p: string;
  q: string;
  dp: string;
  dq: string;
  qi: string;
  [key: string]: unknown;
}

/** The private JWK derived from `secret` and `label` (same inputs, same key). */
export function deriveRsaPrivateJwk(secret: string, label: string): RsaPrivateJwk {
  const stream = new ByteStream(createHmac('sha256', secret).update(`firewatch-rsa:${label}`).digest());
  for (;;) {
    const p = prime(1024, stream);
    const q = prime(1024, stream);
    if (p === q) continue;
    const n = p * q;
    const d = modInverse(E, (p - 1n) * (q - 1n));
    const jwk: RsaPrivateJwk = {
      kty: 'RSA',
      n: b64(n),
      e: b64(E),
      d: b64(d),
      p: b64(p),
      q: b64(q),
      dp: b64(d % (p - 1n)),
      dq: b64(d % (q - 1n)),
      qi: b64(modInverse(q, p)),
    };
    const key = createPrivateKey({ key: jwk, format: 'jwk' });
    const data = Buffer.from('self-test');
    if (verify('sha256', data, createPublicKey(key), sign('sha256', data, key))) return jwk;
  }
}
