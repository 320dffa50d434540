import net from 'node:net';

/**
 * A TCP proxy in front of a service (RabbitMQ in the webhook fault test). `cut()`
 * drops every connection and refuses new ones, which is what a broker restart looks
 * like to the processes; `restore()` lets them reconnect. The machine's real broker is
 * never touched, so suites running in parallel against it are unaffected.
 */
export async function startTcpProxy(targetUrl: string, defaultPort: number) {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || defaultPort), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    get connections() {
      return sockets.size / 2;
    },
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((r) => {
        down = true;
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
