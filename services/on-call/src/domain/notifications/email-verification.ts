import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal } from '@firewatch/auth';
import { HttpError, ServiceUnavailableError } from '@firewatch/errors';
import type { ResourceObject } from '@firewatch/jsonapi';
import { collectionsOf, type ActionSpec, type ResourceModule, type Transaction } from '@firewatch/resource-kit';
import { verificationEmailContent } from './notification-message.js';
import type { EmailTransport } from './notifier.js';

/** An address's pending code, as kept. */
export interface PendingCode {
  hash: string | null;
  expires_at: Date | null;
  sent_at: Date | null;
}

/** What verification writes on an address (data/email-verification.repository.ts). */
export interface VerificationStore {
  setPending(tx: Transaction, id: string, pending: PendingCode): Promise<void>;
  /** Puts `previous` back unless another code replaced `hash` meanwhile. */
  restore(id: string, hash: string, previous: PendingCode): Promise<void>;
  markVerified(tx: Transaction, id: string, at: Date): Promise<void>;
}

export interface EmailVerification {
  /** `resend_verification`: mails a new code (the previous one stops working); the address. */
  resend(principal: Principal, id: string): Promise<ResourceObject>;
  /** `verify`: the code from that mail marks the address verified; the address. */
  verify(principal: Principal, id: string, token: string | undefined): Promise<ResourceObject>;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

const unprocessable = (code: string, detail: string, parameter?: string) =>
  new HttpError(422, 'Unprocessable Entity', code, { detail, ...(parameter ? { source: { parameter } } : {}) });

/**
 * Email address verification (docs/paging.md, "Verifying email addresses"), the
 * reference's `resend_verification` and `verify`: a code of 128 random bits is mailed to
 * the address and kept as SHA-256 only, good for one address for `ttlMs` (24 h); a resend
 * replaces it and waits `resendAfterMs` (60 s) after the last. Both are actions on the
 * address under the kit's rules (the user themselves or an on-call admin; another's
 * address is a 404). The code is stored and committed before the mail goes, so no lock is
 * held while the mail server answers (up to NOTIFICATION_TIMEOUT_MS) and a second resend
 * meanwhile is throttled; a mail the server refuses puts the previous code back.
 */
export function createEmailVerification(deps: {
  addresses: ResourceModule;
  store: VerificationStore;
  email?: EmailTransport;
  ttlMs?: number;
  resendAfterMs?: number;
  now?: () => Date;
}): EmailVerification {
  const ttl = deps.ttlMs ?? 24 * 3600_000;
  const resendAfter = deps.resendAfterMs ?? 60_000;
  const now = deps.now ?? (() => new Date());
  const call = { route: collectionsOf(deps.addresses.definition)[0], params: {} };

  const act = async (name: string, principal: Principal, id: string, run: ActionSpec<unknown>['run']) => {
    const spec: ActionSpec<unknown> = { name, on: 'item', capabilities: ['update'], run };
    const result = await deps.addresses.service.act(spec, principal, undefined, call, id);
    return result.document as ResourceObject;
  };

  return {
    async resend(principal, id) {
      let mail: { id: string; to: string; token: string; hash: string; previous: PendingCode } | undefined;
      const document = await act('resend_verification', principal, id, async ({ record, tx, resource }) => {
        const address = record!;
        if (address.verified_at) throw unprocessable('already_verified', 'The email address is already verified.');
        const sentAt = address.verification_sent_at as Date | null;
        const at = now();
        if (sentAt && at.getTime() - sentAt.getTime() < resendAfter)
          throw unprocessable('resent_too_soon', `A verification email was sent less than ${resendAfter / 1000} seconds ago.`);
        if (!deps.email) throw new ServiceUnavailableError('Email is not configured (SMTP_URL): no verification email can be sent.');
        const token = randomBytes(16).toString('base64url');
        const hash = digest(token).toString('hex');
        const previous = {
          hash: (address.verification_hash as string | null) ?? null,
          expires_at: (address.verification_expires_at as Date | null) ?? null,
          sent_at: sentAt ?? null,
        };
        await deps.store.setPending(tx, String(address.id), { hash, expires_at: new Date(at.getTime() + ttl), sent_at: at });
        mail = { id: String(address.id), to: String(address.email), token, hash, previous };
        return { document: resource.serialize(address) };
      });
      const { id: addressId, to, token, hash, previous } = mail!;
      const delivery = await deps.email!.send(to, verificationEmailContent(to, token, ttl / 3600_000));
      if (!delivery.sent) {
        await deps.store.restore(addressId, hash, previous);
        throw new ServiceUnavailableError(`The verification email could not be sent: ${delivery.reason}.`);
      }
      return document;
    },
    verify: (principal, id, token) =>
      act('verify', principal, id, async ({ record, tx, resource }) => {
        const address = record!;
        if (!token) throw unprocessable('invalid_token', 'token: the code from the verification email is required.', 'token');
        if (address.verified_at) return { document: resource.serialize(address) };
        const stored = address.verification_hash as string | null;
        const expires = address.verification_expires_at as Date | null;
        if (!stored || !timingSafeEqual(Buffer.from(stored, 'hex'), digest(token)))
          throw unprocessable('invalid_token', 'token: not the code of the latest verification email.', 'token');
        const at = now();
        if (!expires || expires.getTime() <= at.getTime())
          throw unprocessable('expired_token', 'token: the code has expired; resend the verification email.', 'token');
        await deps.store.markVerified(tx, String(address.id), at);
        return { document: resource.serialize({ ...address, verified_at: at }) };
      }),
  };
}
