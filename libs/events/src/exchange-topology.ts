import type { ChannelModel } from 'amqplib';

/**
 * Makes sure exchange `name` exists. A passive check comes first: it needs no right on
 * the exchange, and service users may not configure (so neither declare nor delete)
 * exchanges, which provisioning declares (docs/security.md, "The event bus"). Only a
 * missing exchange is declared, which an administrator (`guest` in tests) may and a
 * service user may not (ACCESS_REFUSED, naming the exchange). A failed check closes its
 * channel, hence a channel per step.
 */
export async function ensureExchange(model: ChannelModel, name: string, type: 'topic' | 'direct'): Promise<void> {
  const probe = await model.createChannel();
  probe.on('error', () => undefined);
  try {
    await probe.checkExchange(name);
    await probe.close().catch(() => undefined);
    return;
  } catch (err) {
    if ((err as { code?: number }).code !== 404) throw err;
  }
  const ch = await model.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.assertExchange(name, type, { durable: true });
  } finally {
    await ch.close().catch(() => undefined);
  }
}
