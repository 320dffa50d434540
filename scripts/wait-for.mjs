import net from 'node:net';

/** Resolves once a TCP connect to url's host:port succeeds; rejects after timeoutMs. */
export async function waitForPort(url, defaultPort, timeoutMs = 30_000) {
  const { hostname, port } = new URL(url);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const s = net.connect({ host: hostname, port: Number(port || defaultPort) });
      s.setTimeout(1000, () => {
        s.destroy();
        resolve(false);
      });
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing answers at ${hostname}:${port || defaultPort}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Resolves once GET url answers 200; rejects after timeoutMs. */
export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
