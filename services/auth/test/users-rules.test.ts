import { ianaTimeZone } from '../src/domain/time-zone.rules.js';
import { fullName, splitName, userChanges } from '../src/domain/users.rules.js';
import type { UserRow } from '../src/domain/users.store.js';

const row = (over: Partial<UserRow> = {}): UserRow => ({
  id: 1,
  team_id: 1,
  email: 'a@b.test',
  name: 'Ana Lima',
  first_name: 'Ana',
  last_name: 'Lima',
  time_zone: 'Etc/UTC',
  team_name: null,
  role: 'user',
  on_call_role: 'user',
  password_hash: null,
  is_service_account: false,
  version: 1,
  created_at: new Date(),
  updated_at: new Date(),
  ...over,
});

describe('ianaTimeZone', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['etc/utc', 'Etc/UTC'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Europe/Kyiv', 'Europe/Kyiv'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ])('takes %s as %s', (name, stored) => {
    expect(ianaTimeZone(name)).toBe(stored);
  });

  it.each(['Mars/Olympus', '+01:00', 'EST', 'GMT+1', '', 'Europe/', `Europe/${'x'.repeat(70)}`, 'Etc/GMT+5/x'])('refuses %p', (name) => {
    expect(ianaTimeZone(name)).toBeUndefined();
  });

  it('takes every zone the runtime lists', () => {
    for (const zone of Intl.supportedValuesOf('timeZone')) expect(ianaTimeZone(zone)).toBe(zone);
  });
});

describe('names', () => {
  it('split at the first blank and join back', () => {
    expect(splitName('  Ana  Maria Lima ')).toEqual({ first_name: 'Ana', last_name: 'Maria Lima' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: null });
    expect(fullName('Ana', null)).toBe('Ana');
    expect(fullName(null, 'Lima')).toBe('Lima');
  });

  it('a change of first or last name sets the full name; clearing both is a 422', () => {
    expect(userChanges(row(), { first_name: 'Anna' })).toEqual({ first_name: 'Anna', name: 'Anna Lima' });
    expect(userChanges(row(), { last_name: null })).toEqual({ last_name: null, name: 'Ana' });
    expect(userChanges(row(), { time_zone: 'UTC' })).toEqual({ time_zone: 'UTC' });
    expect(() => userChanges(row(), { first_name: null, last_name: null })).toThrow(expect.objectContaining({ status: 422 }));
  });

  it("a service user's email and roles follow its application", () => {
    const service = row({ is_service_account: true, first_name: null, last_name: null, name: 'Bridge (OAuth application)' });
    expect(() => userChanges(service, { role: 'admin' })).toThrow(expect.objectContaining({ status: 422 }));
    expect(userChanges(service, { role: 'user', time_zone: 'UTC' })).toEqual({ role: 'user', time_zone: 'UTC' });
  });
});
