import { startSystem } from '../support/system.js';

/** The queues on the broker's default vhost, by name (the management API, as the test administrator). */
async function queueNames(): Promise<string[]> {
  const url = new URL(process.env.TEST_AMQP_MANAGEMENT_URL!);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const res = await fetch(`${url.origin}/api/queues/%2F?columns=name`, { headers: { authorization } });
  return ((await res.json()) as { name: string }[]).map((q) => q.name);
}

describe('a stopped system', () => {
  // A durable queue left bound to `#` collects every event published after it on the broker: a
  // system without webhooks left its dispatcher's, and a CI run's later suites (and benches)
  // paid for copying each of their events into every one of them.
  it('leaves none of its queues on the broker, those of consumers it did not start included', async () => {
    const system = await startSystem();
    const suffix = system.env['on-call'].USERS_QUEUE.replace(/^on-call\.users/, '');
    expect((await queueNames()).filter((q) => q.includes(suffix)).length).toBeGreaterThan(0);
    await system.stop();
    expect((await queueNames()).filter((q) => q.includes(suffix))).toEqual([]);
  });
});
