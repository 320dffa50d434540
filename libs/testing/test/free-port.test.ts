import fs from 'node:fs';
import net from 'node:net';
import { freePort } from '../src/free-port.js';

const ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

it('hands out distinct ports below the ephemeral range, each free to bind', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 50; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(50);
  for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ports[0], '127.0.0.1', resolve);
  });
  await new Promise((r) => server.close(r));
});
