import { randomUUID } from 'node:crypto';
import type { ConformanceContext } from '../support/conformance-system.js';
import { type ConformanceOperation, unknownIdRows } from '../conformance-operation.js';

const errorDocument = { spec: 'errors', cite: 'docs/api-contract.md §2 (Errors)' } as const;
const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const email = (address = `${randomUUID().slice(0, 8)}@conformance.test`) => doc('user_email_addresses', { email: address });
// Distinct valid numbers of one range (+1 650 253 xxxx), so that a user's numbers never
// collide: consecutive from a random start (independent draws would share one in a hundred runs).
let nextLine = Math.floor(Math.random() * 10_000);
const phone = () => doc('user_phone_numbers', { phone: `+1650253${String(nextLine++ % 10_000).padStart(4, '0')}` });

/**
 * The team's admin user, once on-call's users read model has it (auth's `user.*` events
 * arrive asynchronously: until then its contacts path is a 404). Rows call as that user
 * (its personal key): the suite's global key is no on-call admin, so it manages no one's.
 */
const users = new WeakMap<ConformanceContext, Promise<string>>();
function userId(ctx: ConformanceContext): Promise<string> {
  if (!users.has(ctx)) {
    users.set(
      ctx,
      (async () => {
        const id = String((await ctx.call('GET', '/v1/users/me', { token: ctx.userToken })).body.data.id);
        for (let tries = 0; tries < 100; tries++) {
          if ((await ctx.call('GET', `/v1/users/${id}/email_addresses`, { token: ctx.userToken })).status === 200) return id;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`fixture: on-call never learnt user ${id}`);
      })(),
    );
  }
  return users.get(ctx)!;
}

async function created(ctx: ConformanceContext, kind: string, body: unknown): Promise<string> {
  const res = await ctx.call('POST', `/v1/users/${await userId(ctx)}/${kind}`, { body, token: ctx.userToken });
  if (res.status !== 201) throw new Error(`fixture: POST ${kind} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
/** A fresh email address of the suite's admin user, made as that user. */
export const emailAddress = (ctx: ConformanceContext) => created(ctx, 'email_addresses', email());
const phoneNumber = (ctx: ConformanceContext) => created(ctx, 'phone_numbers', phone());
const rule = async (ctx: ConformanceContext) =>
  created(
    ctx,
    'notification_rules',
    doc('user_notification_rules', {
      delay: 5,
      enabled_contact_types: ['email', 'sms', 'call'],
      user_email_address_id: await emailAddress(ctx),
      user_sms_number_id: await phoneNumber(ctx),
      user_call_number_id: await phoneNumber(ctx),
    }),
  );

/** One collection of a user's contacts: create and list, with their 422, 401 and unknown-user 404 rows. */
function collectionRows(kind: string, [create, list]: [string, string], valid: () => unknown, invalid: unknown): ConformanceOperation[] {
  const path = `/v1/users/{user_id}/${kind}`;
  const mine = async (ctx: ConformanceContext) => ({ params: { user_id: await userId(ctx) }, token: ctx.userToken });
  return [
    {
      method: 'POST',
      path,
      request: async (ctx) => ({ ...(await mine(ctx)), body: valid() }),
      status: 201,
      schema: { reference: create, status: 201 },
    },
    {
      method: 'POST',
      path,
      variant: 'invalid',
      request: async (ctx) => ({ ...(await mine(ctx)), body: invalid }),
      status: 422,
      schema: { reference: create, status: 422 },
    },
    {
      method: 'POST',
      path,
      variant: 'no credential',
      request: async (ctx) => ({ ...(await mine(ctx)), body: valid(), token: null }),
      status: 401,
      schema: { reference: create, status: 401 },
    },
    { method: 'GET', path, request: mine, status: 200, schema: { reference: list, status: 200 } },
    {
      method: 'GET',
      path,
      variant: 'no credential',
      request: async (ctx) => ({ ...(await mine(ctx)), token: null }),
      status: 401,
      schema: errorDocument,
    },
    {
      method: 'GET',
      path,
      variant: 'unknown user',
      request: () => ({ params: { user_id: '2000000000' } }),
      status: 404,
      schema: errorDocument,
    },
  ];
}

/** One item path: show, update (and its 422), delete, and the unknown-id 404s. */
function itemRows(
  path: string,
  [show, update, remove]: [string, string, string],
  make: (ctx: ConformanceContext) => Promise<string>,
  change: () => unknown,
  invalid: unknown,
): ConformanceOperation[] {
  const id = async (ctx: ConformanceContext) => ({ params: { id: await make(ctx) }, token: ctx.userToken });
  return [
    { method: 'GET', path, request: id, status: 200, schema: { reference: show, status: 200 } },
    {
      method: 'PUT',
      path,
      request: async (ctx) => ({ ...(await id(ctx)), body: change() }),
      status: 200,
      schema: { reference: update, status: 200 },
    },
    {
      method: 'PUT',
      path,
      variant: 'invalid',
      request: async (ctx) => ({ ...(await id(ctx)), body: invalid }),
      status: 422,
      schema: errorDocument,
    },
    {
      method: 'DELETE',
      path,
      request: id,
      status: 200,
      schema: { reference: remove, status: 200 },
    },
    ...unknownIdRows(path, [
      ['GET', show],
      ['PUT', update, change()],
      ['DELETE', remove],
    ]),
  ];
}

const ruleBody = () => doc('user_notification_rules', { delay: 10, notification_type: 'quiet', enabled_contact_types: ['email'] });

/** Users' contact methods and notification rules (issue 22; on-call, docs/on-call.md). */
export const contactOperations: ConformanceOperation[] = [
  ...collectionRows('email_addresses', ['createUserEmailAddress', 'getUserEmailAddresses'], email, email('not an address')),
  ...itemRows(
    '/v1/email_addresses/{id}',
    ['showUserEmailAddress', 'updateUserEmailAddress', 'deleteUserEmailAddress'],
    emailAddress,
    email,
    email('@'),
  ),
  ...collectionRows(
    'phone_numbers',
    ['createUserPhoneNumber', 'getUserPhoneNumbers'],
    phone,
    doc('user_phone_numbers', { phone: '555-0100' }),
  ),
  ...itemRows(
    '/v1/phone_numbers/{id}',
    ['showUserPhoneNumber', 'updateUserPhoneNumber', 'deleteUserPhoneNumber'],
    phoneNumber,
    phone,
    doc('user_phone_numbers', { phone: '+1' }),
  ),
  {
    method: 'DELETE',
    path: '/v1/phone_numbers/{id}',
    variant: 'used by a notification rule',
    request: async (ctx) => {
      const number = await phoneNumber(ctx);
      await created(
        ctx,
        'notification_rules',
        doc('user_notification_rules', { enabled_contact_types: ['sms'], user_sms_number_id: number }),
      );
      return { params: { id: number }, token: ctx.userToken };
    },
    status: 422,
    schema: { reference: 'deleteUserPhoneNumber', status: 422 },
  },
  ...collectionRows(
    'notification_rules',
    ['createUserNotificationRule', 'listUserNotificationRules'],
    () => doc('user_notification_rules', { enabled_contact_types: ['email'] }),
    doc('user_notification_rules', { enabled_contact_types: ['pager'] }),
  ),
  ...itemRows(
    '/v1/notification_rules/{id}',
    ['getUserNotificationRule', 'updateUserNotificationRule', 'deleteUserNotificationRule'],
    rule,
    ruleBody,
    doc('user_notification_rules', { delay: -1 }),
  ),
];
