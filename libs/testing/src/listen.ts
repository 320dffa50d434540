import type { RequestListener } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves an express app (or any listener) on a free loopback port. */
export async function listen(app: RequestListener): Promise<Listening> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
