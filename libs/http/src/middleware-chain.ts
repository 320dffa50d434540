import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware run one after another as one express layer: what the router does for each
 * of its layers (match the path, merge params, trim the mount path, guard the call) is
 * done once for the chain instead of once per middleware, on every request. As in a
 * router, a middleware that throws or rejects, or passes an error to `next`, skips the
 * rest of the chain and hands the error on; `next('route')` or a falsy value goes on as
 * `next()`, and `next('router')` leaves the chain. Every middleware must be mounted at
 * the chain's path and take no error argument.
 */
export function middlewareChain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (err?: unknown) => {
      if (err === 'router') return next();
      if (err && err !== 'route') return next(err);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const answer: unknown = handler(req, res, step);
        if (answer instanceof Promise) answer.then(undefined, (e: unknown) => next(e || new Error('Rejected promise')));
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
