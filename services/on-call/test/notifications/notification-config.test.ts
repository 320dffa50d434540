import { configIssues, loadConfig } from '@firewatch/config';
import { TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { createLogger } from '@firewatch/logger';
import type { Knex } from 'knex';
import { configSchema } from '../../src/config.js';
import { notificationsFrom } from '../../src/notifications.wiring.js';

const base = {
  DATABASE_URL: 'postgres://u:p@localhost/db',
  AMQP_URL: 'amqp://localhost',
  PRINCIPAL_PUBLIC_KEYS: JSON.stringify(TEST_PRINCIPAL_KEYS.publicKeys),
};
const TWILIO = { TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+15005550006' };

describe('notification settings', () => {
  it('start with no key or secret to configure: the channels off, links good 24 h from the public URL', () => {
    const config = loadConfig(configSchema, { ...base, NODE_ENV: 'production', PUBLIC_URL: 'https://fw.example/' });
    expect(config).toMatchObject({
      SMTP_URL: undefined,
      SMTP_POOL_SIZE: 10,
      TWILIO_ACCOUNT_SID: undefined,
      PAGING_LINK_TTL_HOURS: 24,
      PUBLIC_URL: 'https://fw.example',
    });
    expect(
      configIssues(configSchema, { ...base, TWILIO_FROM_NUMBER: '0155 555', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' }),
    ).toEqual([{ variable: 'TWILIO_FROM_NUMBER', message: 'must be an E.164 number, e.g. +15005550006' }]);
    expect(configIssues(configSchema, { ...base, SMTP_POOL_SIZE: '0' })).toEqual([
      { variable: 'SMTP_POOL_SIZE', message: expect.any(String) },
    ]);
  });

  it('refuse part of the Twilio settings, which would skip every SMS and call', () => {
    expect(configIssues(configSchema, { ...base, TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token' })).toEqual([
      { variable: 'TWILIO_FROM_NUMBER', message: 'required with TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN: Twilio needs all three' },
    ]);
    expect(configIssues(configSchema, { ...base, ...TWILIO })).toEqual([]);
  });

  it('in production with a channel on, refuse links that point at localhost', () => {
    const prod = { ...base, NODE_ENV: 'production' };
    for (const channel of [{ SMTP_URL: 'smtp://mail.example:25' }, TWILIO])
      expect(configIssues(configSchema, { ...prod, ...channel })).toEqual([
        { variable: 'PUBLIC_URL', message: expect.stringContaining('required when NODE_ENV=production and a channel is on') },
      ]);
    expect(configIssues(configSchema, { ...prod, SMTP_URL: 'smtp://mail.example:25', PUBLIC_URL: 'https://fw.example' })).toEqual([]);
    expect(configIssues(configSchema, { ...base, SMTP_URL: 'smtp://mail.example:25' })).toEqual([]);
  });

  it('wire a notifier that skips unconfigured channels', async () => {
    const config = loadConfig(configSchema, { ...base, PUBLIC_URL: 'https://fw.example' });
    const { notifier, close } = notificationsFrom(config, {} as Knex, createLogger({ service: 'test', level: 'silent' }));
    const request = {
      team_id: 1,
      alert: { id: 'a', summary: 'x' },
      user: { user_id: 1, name: 'A', email: 'a@x.test', time_zone: 'Etc/UTC' },
      channel: 'sms' as const,
      address: '+14155550100',
      contact_method_id: null,
      attempt_id: 'n',
      notification_type: 'audible' as const,
    };
    expect(await notifier.send(request)).toEqual({ status: 'skipped', reason: expect.stringContaining('SMS is not configured') });
    close();
  });
});
