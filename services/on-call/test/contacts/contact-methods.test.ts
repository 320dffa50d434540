import type { Knex } from 'knex';
import { startOnCall, type OnCallHarness } from '../support/on-call-harness.js';
import { doc, pointers } from '../support/schedules.fixture.js';
import { seedUsers } from '../support/users.fixture.js';

let h: OnCallHarness;
beforeAll(async () => {
  h = await startOnCall({ eventPattern: '#' });
  await seedUsers(h.db.knex as Knex, [
    { team_id: 1, user_id: 11 },
    { team_id: 1, user_id: 12 },
    { team_id: 1, user_id: 13, deleted: true },
    { team_id: 2, user_id: 21 },
  ]);
});
afterAll(async () => h?.close());

/** A member of team 1 acting as themselves (a personal key or an OAuth token of theirs). */
const as = (user_id: number, more: Record<string, unknown> = {}) => ({ user_id, role: 'user', on_call_role: 'user', ...more });
const post = (
  userId: number | string,
  kind: string,
  type: string,
  attributes: Record<string, unknown>,
  principal?: Record<string, unknown>,
) => h.call('POST', `/v1/users/${userId}/${kind}`, { ...doc(type, attributes), principal });

describe('email addresses', () => {
  it('a user adds, lists, reads, changes and deletes their own; the oldest is primary', async () => {
    const me = as(11);
    const first = await post(11, 'email_addresses', 'user_email_addresses', { email: ' ada@example.com ' }, me);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      type: 'user_email_addresses',
      attributes: { user_id: 11, email: 'ada@example.com', primary: true },
    });
    const second = await post(11, 'email_addresses', 'user_email_addresses', { email: 'ada@home.example' }, me);
    expect(second.body.data.attributes.primary).toBe(false);
    const list = await h.call('GET', '/v1/users/11/email_addresses', { principal: me });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { attributes: { email: string } }) => e.attributes.email)).toEqual([
      'ada@example.com',
      'ada@home.example',
    ]);
    const id = second.body.data.id;
    expect((await h.call('GET', `/v1/email_addresses/${id}`, { principal: me })).body.data.attributes.email).toBe('ada@home.example');
    const put = await h.call('PUT', `/v1/email_addresses/${id}`, {
      ...doc('user_email_addresses', { email: 'ada@work.example' }),
      principal: me,
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes.email).toBe('ada@work.example');
    // The primary goes; the next oldest becomes primary.
    expect((await h.call('DELETE', `/v1/email_addresses/${first.body.data.id}`, { principal: me })).status).toBe(200);
    expect((await h.call('GET', `/v1/email_addresses/${id}`, { principal: me })).body.data.attributes.primary).toBe(true);
    await h.events!.waitFor((es) =>
      es.some((e) => e.routingKey === 'user_email_address.deleted' && (e.body.data as { id: string }).id === first.body.data.id),
    );
  });

  it('refuses an invalid address at its pointer and one the user has, whatever the case', async () => {
    for (const email of ['not-an-address', '', 'a@b', 42]) {
      const res = await post(12, 'email_addresses', 'user_email_addresses', { email });
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/data/attributes/email']);
    }
    expect((await post(12, 'email_addresses', 'user_email_addresses', {})).status).toBe(422);
    expect((await post(12, 'email_addresses', 'user_email_addresses', { email: 'b@example.com', primary: true })).status).toBe(422);
    expect((await post(12, 'email_addresses', 'user_email_addresses', { email: 'b@example.com' })).status).toBe(201);
    const again = await post(12, 'email_addresses', 'user_email_addresses', { email: 'B@Example.com' });
    expect(again.status).toBe(409);
    expect(pointers(again)).toEqual(['/data/attributes/email']);
  });
});

describe('phone numbers', () => {
  it('stores numbers in E.164 and refuses any that is not a valid international number, at its pointer', async () => {
    const ok = await post(11, 'phone_numbers', 'user_phone_numbers', { phone: '+1 (415) 555-2671' }, as(11));
    expect(ok.status).toBe(201);
    expect(ok.body.data.attributes).toMatchObject({
      user_id: 11,
      phone: '+14155552671',
      primary: true,
      verified_at: null,
      verification_attempts_today: 0,
    });
    const invalid = ['4155552671', '+1415555267', '+10000000000', '+999123', 'call me', '', 14155552671];
    // Only a number: no text around it, no extension (E.164 has none; it would be dropped).
    const notOnlyANumber = ['+1 415 555 2671 ext. 123', '+14155552671;ext=5', '+1 415 555 2671 and more', 'tel:+14155552671'];
    for (const phone of [...invalid, ...notOnlyANumber]) {
      const res = await post(11, 'phone_numbers', 'user_phone_numbers', { phone }, as(11));
      expect(res.status).toBe(422);
      expect(pointers(res)).toEqual(['/data/attributes/phone']);
    }
    const twice = await post(11, 'phone_numbers', 'user_phone_numbers', { phone: '+14155552671' }, as(11));
    expect(twice.status).toBe(409);
    const put = await h.call('PUT', `/v1/phone_numbers/${ok.body.data.id}`, {
      ...doc('user_phone_numbers', { phone: '+33 6 12 34 56 78' }),
      principal: as(11),
    });
    expect(put.body.data.attributes.phone).toBe('+33612345678');
    const bad = await h.call('PUT', `/v1/phone_numbers/${ok.body.data.id}`, {
      ...doc('user_phone_numbers', { phone: '+3361234' }),
      principal: as(11),
    });
    expect(bad.status).toBe(422);
    expect(pointers(bad)).toEqual(['/data/attributes/phone']);
  });
});

describe('notification rules', () => {
  it("orders a user's rules, names only their own contact methods, and keeps a contact method a rule names", async () => {
    const me = as(12);
    const email = (await post(12, 'email_addresses', 'user_email_addresses', { email: 'rules@example.com' }, me)).body.data.id;
    const phone = (await post(12, 'phone_numbers', 'user_phone_numbers', { phone: '+442071838750' }, me)).body.data.id;
    const othersPhone = (await post(11, 'phone_numbers', 'user_phone_numbers', { phone: '+12015550123' })).body.data.id;
    const rule = (attributes: Record<string, unknown>) => post(12, 'notification_rules', 'user_notification_rules', attributes, me);

    const now = await rule({ enabled_contact_types: ['email', 'sms'], user_email_address_id: email, user_sms_number_id: phone });
    expect(now.status).toBe(201);
    expect(now.body.data.attributes).toMatchObject({
      user_id: 12,
      delay: 0,
      position: 1,
      user_email_address_id: email,
      user_sms_number_id: phone,
      user_call_number_id: null,
      user_device_id: null,
      enabled_contact_types: ['email', 'sms'],
      notification_type: 'audible',
    });
    const later = await rule({
      enabled_contact_types: ['call'],
      user_call_number_id: phone,
      delay: 10,
      notification_type: 'quiet',
      position: 0,
    });
    expect(later.status).toBe(201);
    const list = await h.call('GET', '/v1/users/12/notification_rules', { principal: me });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([later.body.data.id, now.body.data.id]);
    const quiet = await h.call('GET', '/v1/users/12/notification_rules?filter[notification_type]=quiet', { principal: me });
    expect(quiet.body.data.map((r: { id: string }) => r.id)).toEqual([later.body.data.id]);

    const foreign = await rule({ enabled_contact_types: ['call'], user_call_number_id: othersPhone, user_email_address_id: phone });
    expect(foreign.status).toBe(422);
    expect(pointers(foreign).sort()).toEqual(['/data/attributes/user_call_number_id', '/data/attributes/user_email_address_id']);
    const device = await rule({ enabled_contact_types: ['device'], user_device_id: '00000000-0000-4000-8000-000000000000' });
    expect(pointers(device)).toEqual(['/data/attributes/user_device_id']);
    for (const bad of [
      {},
      { enabled_contact_types: [] },
      { enabled_contact_types: ['pigeon'] },
      { enabled_contact_types: ['sms', 'sms'] },
      { enabled_contact_types: ['sms'], delay: -1 },
      { enabled_contact_types: ['sms'], notification_type: 'loud' },
    ]) {
      expect((await rule(bad)).status).toBe(422);
    }

    const inUse = await h.call('DELETE', `/v1/phone_numbers/${phone}`, { principal: me });
    expect(inUse.status).toBe(422);
    expect(inUse.body.errors[0].detail).toContain(later.body.data.id);
    const put = await h.call('PUT', `/v1/notification_rules/${later.body.data.id}`, {
      ...doc('user_notification_rules', { user_call_number_id: null, delay: null }),
      principal: me,
    });
    expect(put.status).toBe(200);
    expect(put.body.data.attributes).toMatchObject({ user_call_number_id: null, delay: 0, notification_type: 'quiet' });
    expect((await h.call('DELETE', `/v1/notification_rules/${now.body.data.id}`, { principal: me })).status).toBe(200);
    expect((await h.call('DELETE', `/v1/phone_numbers/${phone}`, { principal: me })).status).toBe(200);
  });
});

describe('who manages whose', () => {
  it("hides another user's contacts from a member (404, as the reference), lets on-call admins manage anyone's", async () => {
    const mine = (await post(11, 'email_addresses', 'user_email_addresses', { email: 'private@example.com' }, as(11))).body.data.id;
    const other = as(12);
    expect((await h.call('GET', '/v1/users/11/email_addresses', { principal: other })).status).toBe(404);
    expect((await post(11, 'email_addresses', 'user_email_addresses', { email: 'x@example.com' }, other)).status).toBe(404);
    expect((await h.call('GET', `/v1/email_addresses/${mine}`, { principal: other })).status).toBe(404);
    expect(
      (await h.call('PUT', `/v1/email_addresses/${mine}`, { ...doc('user_email_addresses', { email: 'y@example.com' }), principal: other }))
        .status,
    ).toBe(404);
    expect((await h.call('DELETE', `/v1/email_addresses/${mine}`, { principal: other })).status).toBe(404);
    // An incident-side admin is no on-call admin; an on-call observer reads their own but changes nothing.
    expect((await h.call('GET', `/v1/email_addresses/${mine}`, { principal: as(12, { role: 'admin' }) })).status).toBe(404);
    expect((await h.call('GET', `/v1/email_addresses/${mine}`, { principal: as(11, { on_call_role: 'observer' }) })).status).toBe(200);
    expect(
      (await post(11, 'email_addresses', 'user_email_addresses', { email: 'z@example.com' }, as(11, { on_call_role: 'observer' }))).status,
    ).toBe(403);
    // The default test principal is an on-call admin (user 1).
    expect((await h.call('GET', `/v1/email_addresses/${mine}`)).status).toBe(200);
    expect((await post(12, 'email_addresses', 'user_email_addresses', { email: 'set-by-admin@example.com' })).status).toBe(201);
    // OAuth tokens need `all` or `oc.all`: no granular scope names contact methods.
    expect((await h.call('GET', '/v1/users/11/email_addresses', { principal: as(11, { scopes: ['oc.schedules:read'] }) })).status).toBe(
      403,
    );
    expect((await h.call('GET', '/v1/users/11/email_addresses', { principal: as(11, { scopes: ['oc.all'] }) })).status).toBe(200);
  });

  it('answers 404 for an unknown, deleted or malformed user and for another team, on collections and items', async () => {
    for (const user of ['999', '13', 'abc', '0', '99999999999', '21'])
      for (const kind of ['email_addresses', 'phone_numbers', 'notification_rules'])
        expect((await h.call('GET', `/v1/users/${user}/${kind}`)).status).toBe(404);
    expect((await post(13, 'phone_numbers', 'user_phone_numbers', { phone: '+14155552671' })).status).toBe(404);
    const ours = (await post(11, 'phone_numbers', 'user_phone_numbers', { phone: '+16502530000' })).body.data.id;
    const otherTeam = { team_id: 2, user_id: 21 };
    expect((await h.call('GET', '/v1/users/11/phone_numbers', { principal: otherTeam })).status).toBe(404);
    expect((await h.call('GET', `/v1/phone_numbers/${ours}`, { principal: otherTeam })).status).toBe(404);
    expect((await h.call('DELETE', `/v1/phone_numbers/${ours}`, { principal: otherTeam })).status).toBe(404);
    expect((await h.call('GET', '/v1/users/21/phone_numbers', { principal: otherTeam })).status).toBe(200);
  });
});
