import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';
import { emailAddress } from './contacts.operations.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;

/**
 * Verifying email addresses (docs/paging.md, "Verifying email addresses"). The system under
 * test has no SMTP server, so a resend is the 503 of an unconfigured channel and no code
 * reaches a row; the 200s are proven against a real SMTP server in
 * services/on-call/test/notifications/email-verification.test.ts.
 */
export const emailVerificationOperations: ConformanceOperation[] = [
  {
    method: 'POST',
    path: '/v1/email_addresses/{id}/verify',
    variant: 'a code that is not the latest',
    request: async (ctx) => ({ params: { id: await emailAddress(ctx) }, query: 'token=not-the-code', token: ctx.userToken }),
    status: 422,
    schema: { reference: 'verifyUserEmailAddress', status: 422 },
  },
  {
    method: 'POST',
    path: '/v1/email_addresses/{id}/resend_verification',
    variant: 'email not configured',
    request: async (ctx) => ({ params: { id: await emailAddress(ctx) }, token: ctx.userToken }),
    status: 503,
    schema: errorDocument,
  },
  ...unknownIdRows('/v1/email_addresses/{id}/verify', [['POST', 'verifyUserEmailAddress']]),
  ...unknownIdRows('/v1/email_addresses/{id}/resend_verification', [['POST', 'resendUserEmailAddressVerification']]),
];
