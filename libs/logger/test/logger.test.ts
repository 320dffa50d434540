import { PassThrough } from 'node:stream';
import { createLogger, redact, requestContext } from '../src/index.js';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { stream, lines };
}

describe('logger', () => {
  it('writes JSON with service and the current request id', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'svc', stream });
    requestContext.run({ requestId: 'req-1' }, () => logger.info('hello', { n: 1 }));
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).toMatchObject({ level: 'info', message: 'hello', service: 'svc', request_id: 'req-1', n: 1 });
  });

  it('never writes credentials', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'svc', stream });
    logger.warn('got Bearer abc.def.ghi', { headers: { authorization: 'Bearer xyz', accept: 'x' }, password: 'p' });
    await new Promise((r) => setImmediate(r));
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain('xyz');
    expect(text).not.toContain('abc.def.ghi');
    expect(text).not.toContain('"p"');
    expect(lines[0]).toMatchObject({ headers: { authorization: '[REDACTED]', accept: 'x' } });
  });
});

describe('redact', () => {
  it('masks nested secret keys and keeps the rest', () => {
    expect(redact({ a: { client_secret: 's', b: [{ token: 't', c: 1 }] } })).toEqual({
      a: { client_secret: '[REDACTED]', b: [{ token: '[REDACTED]', c: 1 }] },
    });
  });
});
