import net from 'node:net';
import { createAddressPolicy } from '../src/domain/address-policy.js';
import { createWebhookHttpClient } from '../src/outbound/webhook-http.client.js';

// A custom header value may hold obs-text (U+0080-U+00FF: the webhooks API accepts it,
// custom-headers.ts FIELD_VALUE). Node writes header bytes as latin1: one byte per character.
it('sends a custom header value with obs-text as latin1 bytes, one byte a character', async () => {
  let raw = Buffer.alloc(0);
  const server = net.createServer((s) =>
    s.on('data', (c) => {
      raw = Buffer.concat([raw, c]);
      if (raw.includes('\r\n\r\n{}')) s.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const post = createWebhookHttpClient({ policy: createAddressPolicy(['127.0.0.0/8']), timeoutMs: 2000, maxResponseBytes: 100 });
  try {
    const { port } = server.address() as net.AddressInfo;
    const result = await post(`http://127.0.0.1:${port}/`, { 'x-key': 'caf\u00e9' }, '{}');
    expect(result.statusCode).toBe(200);
    const line = raw.subarray(raw.indexOf('x-key: '), raw.indexOf('\r\n', raw.indexOf('x-key: ')));
    expect(line.toString('hex')).toBe(Buffer.from('x-key: caf\u00e9', 'latin1').toString('hex'));
  } finally {
    post.close();
    server.close();
  }
});
