import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { middlewareChain } from '../src/middleware-chain.js';

// The chain stands for a router's layers: what reaches the outer `next` must be what the router passed on.
const run = (handlers: RequestHandler[]) =>
  new Promise<{ seen: string[]; passed: unknown[] }>((resolve) => {
    const seen: string[] = [];
    const named = handlers.map(
      (h, i) =>
        ((req: Request, res: Response, next: NextFunction) => {
          seen.push(`h${i}`);
          return h(req, res, next);
        }) as RequestHandler,
    );
    middlewareChain(named)(
      {} as Request,
      {} as Response,
      ((...passed: unknown[]) => setImmediate(() => resolve({ seen, passed }))) as NextFunction,
    );
  });

const pass: RequestHandler = (_req, _res, next) => next();

describe('middlewareChain', () => {
  it('runs each middleware in order, then the outer next without an error', async () => {
    expect(await run([pass, pass, pass])).toEqual({ seen: ['h0', 'h1', 'h2'], passed: [] });
  });

  it('hands on an error passed, thrown or rejected, skipping the rest', async () => {
    const boom = new Error('boom');
    for (const failing of [
      ((_req, _res, next) => next(boom)) as RequestHandler,
      (() => {
        throw boom;
      }) as RequestHandler,
      (async () => {
        throw boom;
      }) as RequestHandler,
    ])
      expect(await run([pass, failing, pass])).toEqual({ seen: ['h0', 'h1'], passed: [boom] });
  });

  it("goes on after next('route') or a falsy value, and leaves the chain on next('router')", async () => {
    expect(await run([(_req, _res, next) => next('route'), (_req, _res, next) => next(false as never), pass])).toEqual({
      seen: ['h0', 'h1', 'h2'],
      passed: [],
    });
    expect(await run([(_req, _res, next) => next('router'), pass])).toEqual({ seen: ['h0'], passed: [] });
  });
});
