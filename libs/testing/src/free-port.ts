import fs from 'node:fs';
import net from 'node:net';

// Below the kernel's ephemeral range: a port from `listen(0)`, once closed, can be taken by
// any outgoing connection (a pool's, the broker's) before the child process meant to serve
// it binds it — a service of a test or bench then failed with EADDRINUSE.
const LOWEST = 20_000;
const handedOut = new Set<number>();

function ephemeralStart(): number {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port nothing listens on at the time of asking, for a process started next to
 * bind. Picked at random below the ephemeral range (so no outgoing connection takes it in
 * between) and never twice in one process (so two children started together differ).
 */
export async function freePort(): Promise<number> {
  const highest = Math.max(LOWEST + 1_000, ephemeralStart());
  for (let tries = 0; tries < 500; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in ${LOWEST}–${highest - 1}`);
}
