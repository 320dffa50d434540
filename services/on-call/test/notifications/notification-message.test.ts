import { emailContent, escapeMarkup, smsBody, voiceTwiml } from '../../src/domain/notifications/notification-message.js';
import type { NotificationRequest } from '../../src/domain/paging/paging.ports.js';

const urls = { acknowledge: 'https://fw.example/alert-actions/a.b.c', resolve: 'https://fw.example/alert-actions/d.e.f' };

const request = (alert: Record<string, unknown>, channel: NotificationRequest['channel'] = 'email'): NotificationRequest => ({
  team_id: 1,
  alert: { id: '0b6f1c1e-0000-4000-8000-000000000001', short_id: 'ALR-7', summary: 'Disk full', ...alert },
  user: { user_id: 11, name: 'Ada <Admin>', email: 'ada@example.test', time_zone: 'Etc/UTC' },
  channel,
  address: 'ada@example.test',
  contact_method_id: null,
  attempt_id: 'attempt-1',
  notification_type: 'audible',
});

describe('notification messages', () => {
  it('email: subject with urgency and short id, text and HTML with description, source and both links', () => {
    const mail = emailContent(
      request({ urgency: 'High', description: 'Only 2%\nleft', external_url: 'https://grafana.example/d?x=1&y=2' }),
      urls,
    );
    expect(mail.subject).toBe('[High] Alert #ALR-7: Disk full');
    expect(mail.text).toContain('Hello Ada <Admin>,');
    expect(mail.text).toContain('Only 2%\nleft');
    expect(mail.text).toContain('Source: https://grafana.example/d?x=1&y=2');
    expect(mail.text).toContain(`Acknowledge: ${urls.acknowledge}\nResolve: ${urls.resolve}`);
    expect(mail.html).toContain('Hello Ada &lt;Admin&gt;,');
    expect(mail.html).toContain('<a href="https://grafana.example/d?x=1&amp;y=2">');
    expect(mail.html).toContain(`<a href="${urls.resolve}">Resolve</a>`);
  });

  it('email: a summary or description with markup is escaped in HTML; a non-http source link is left out', () => {
    const mail = emailContent(
      request({ summary: '<script>x</script>', description: '"q" & \'a\'', external_url: 'javascript:alert(1)' }),
      urls,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toContain('&quot;q&quot; &amp; &#39;a&#39;');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).not.toContain('Source:');
    expect(mail.subject).toBe('Alert #ALR-7: <script>x</script>');
  });

  it('email: no urgency, description or summary still reads', () => {
    const mail = emailContent(request({ summary: '  ', urgency: { name: null } }), urls);
    expect(mail.subject).toBe('Alert #ALR-7: Alert');
    expect(mail.text).not.toContain('Urgency');
  });

  it('SMS: the summary clipped to 120 characters and the acknowledge link', () => {
    const body = smsBody(request({ summary: 'x'.repeat(300), urgency: { name: 'Low' } }, 'sms'), urls);
    const [first, second] = body.split('\n');
    expect(first).toBe(`Firewatch alert [Low]: ${'x'.repeat(119)}…`);
    expect(second).toBe(`Ack: ${urls.acknowledge}`);
  });

  it('voice: escaped <Say> inside a one-digit <Gather> to the acknowledge link, said again after', () => {
    const twiml = voiceTwiml(request({ summary: 'a < b & c' }, 'voice'), { ...urls, acknowledge: 'https://fw.example/x?a=1&b=2' });
    expect(twiml.startsWith('<?xml version="1.0" encoding="UTF-8"?><Response>')).toBe(true);
    expect(twiml).toContain('<Gather numDigits="1" timeout="10" method="POST" action="https://fw.example/x?a=1&amp;b=2">');
    expect(twiml.match(/<Say>Firewatch alert\. a &lt; b &amp; c<\/Say>/g)).toHaveLength(2);
    expect(twiml.endsWith('</Response>')).toBe(true);
  });

  it('escapeMarkup escapes the five characters', () => {
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
