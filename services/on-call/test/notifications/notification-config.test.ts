import { configIssues, loadConfig } from '@firewatch/config';
import { TEST_PRINCIPAL_KEYS } from '@firewatch/testing';
import { createLogger } from '@firewatch/logger';
import { configSchema } from '../../src/config.js';
import { notificationsFrom } from '../../src/notifications.wiring.js';

const base = {
  DATABASE_URL: 'postgres://u:p@localhost/db',
  AMQP_URL: 'amqp://localhost',
  PRINCIPAL_PUBLIC_KEYS: JSON.stringify(TEST_PRINCIPAL_KEYS.publicKeys),
};
const SECRET = 'x'.repeat(40);

describe('notification settings', () => {
  it('require PAGING_LINK_SECRET in production, and DEV_KEY_SEED or it elsewhere', () => {
    const issues = configIssues(configSchema, { ...base, NODE_ENV: 'production', DEV_KEY_SEED: SECRET });
    expect(issues).toContainEqual({
      variable: 'PAGING_LINK_SECRET',
      message: expect.stringContaining('required when NODE_ENV=production'),
    });
    expect(configIssues(configSchema, { ...base })).toContainEqual({
      variable: 'DEV_KEY_SEED',
      message: expect.stringContaining('PAGING_LINK_SECRET'),
    });
    expect(configIssues(configSchema, { ...base, NODE_ENV: 'production', PAGING_LINK_SECRET: 'short' })).toContainEqual({
      variable: 'PAGING_LINK_SECRET',
      message: 'must be at least 32 characters',
    });
  });

  it('default the channels off, the links to 24 h from the public URL, and refuse a sender number that is not E.164', () => {
    const config = loadConfig(configSchema, {
      ...base,
      NODE_ENV: 'production',
      PAGING_LINK_SECRET: SECRET,
      PUBLIC_URL: 'https://fw.example/',
    });
    expect(config).toMatchObject({
      SMTP_URL: undefined,
      TWILIO_ACCOUNT_SID: undefined,
      PAGING_LINK_TTL_HOURS: 24,
      PUBLIC_URL: 'https://fw.example',
    });
    expect(configIssues(configSchema, { ...base, DEV_KEY_SEED: SECRET, TWILIO_FROM_NUMBER: '0155 555' })).toEqual([
      { variable: 'TWILIO_FROM_NUMBER', message: 'must be an E.164 number, e.g. +15005550006' },
    ]);
  });

  it('wire a notifier that skips unconfigured channels and links that verify with the same key', async () => {
    const config = loadConfig(configSchema, { ...base, DEV_KEY_SEED: SECRET, PUBLIC_URL: 'https://fw.example' });
    const { notifier, links, close } = notificationsFrom(config, createLogger({ service: 'test', level: 'silent' }));
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
    expect(await notifier.send(request)).toMatchObject({ status: 'skipped' });
    const url = await links.url(request, 'acknowledge');
    expect(url.startsWith('https://fw.example/alert-actions/')).toBe(true);
    const again = notificationsFrom(config, createLogger({ service: 'test', level: 'silent' }));
    expect((await again.links.verify(url.slice(url.lastIndexOf('/') + 1))).ok).toBe(true);
    close();
    again.close();
  });
});
