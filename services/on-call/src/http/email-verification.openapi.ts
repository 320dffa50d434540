import { describePermission } from '@firewatch/auth';
import { BEARER, errorResponses, jsonApiContent, pathParameter, ref, type OpenApiPart } from '@firewatch/openapi';
import { userEmailAddresses } from '../domain/contacts/user-email-addresses.resource.js';

const who = `The user themselves or an on-call admin; another user's address is a 404. ${describePermission(userEmailAddresses.permission)}`;
const answer = { description: 'the email address', ...jsonApiContent(ref('user_email_addresses_response')) };

/** `resend_verification` and `verify` of email addresses (email-verification.routes.ts). */
export const emailVerificationOpenApi: OpenApiPart = {
  schemas: {},
  paths: {
    '/v1/email_addresses/{id}/resend_verification': {
      post: {
        operationId: 'resend_verification_user_email_addresses',
        summary: 'Resend the verification email of an email address',
        description: `Mails a new verification code to the address (the previous one stops working), valid 24 hours. 422 when the address is already verified or a code was sent less than a minute ago; 503 when email is not configured or the mail server refused the mail (the previous code stays in force). ${who}`,
        tags: ['user_email_addresses'],
        security: BEARER,
        parameters: [pathParameter('id', 'The email address id (UUID).')],
        responses: { '200': answer, ...errorResponses(401, 403, 404, 422, 429, 503) },
      },
    },
    '/v1/email_addresses/{id}/verify': {
      post: {
        operationId: 'verify_user_email_addresses',
        summary: 'Verify an email address with the code mailed to it',
        description: `Marks the address verified when \`token\` is the code of its latest verification email and has not expired (422 otherwise, pointing at the parameter). An address already verified answers as it is. Changing the address undoes its verification. ${who}`,
        tags: ['user_email_addresses'],
        security: BEARER,
        parameters: [
          pathParameter('id', 'The email address id (UUID).'),
          { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: 'The code from the verification email.' },
        ],
        responses: { '200': answer, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
  },
};
