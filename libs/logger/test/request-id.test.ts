import http from 'node:http';
import { randomRequestId } from '../src/request-id.js';
import { requestIdMiddleware } from '../src/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomRequestId', () => {
  it('makes distinct version 4 UUIDs, every hex digit in every free position', () => {
    const ids = Array.from({ length: 20_000 }, randomRequestId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    // Across batches of random bytes (128 ids each), each random position takes every value.
    for (let at = 0; at < 36; at++) {
      if ([8, 13, 14, 18, 19, 23].includes(at)) continue;
      expect([at, new Set(ids.map((id) => id[at])).size]).toEqual([at, 16]);
    }
    expect(new Set(ids.map((id) => id[19]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('is what the middleware gives a request that brought no usable id', () => {
    const middleware = requestIdMiddleware();
    for (const given of [undefined, 'not valid!', 'x'.repeat(129)]) {
      const req = { headers: given === undefined ? {} : { 'x-request-id': given } } as http.IncomingMessage & { id?: string };
      const res = new http.ServerResponse(req);
      middleware(req, res, () => undefined);
      expect(req.id).toMatch(UUID_V4);
      expect(res.getHeader('X-Request-Id')).toBe(req.id);
      expect(req.headers['x-request-id']).toBe(req.id);
    }
  });
});
