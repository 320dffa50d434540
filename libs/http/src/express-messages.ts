import http, { type RequestListener } from 'node:http';

type MessageClasses = Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;

/** A class of `base` whose instances are made with `prototype` as theirs (a subclass of it, as express's are). */
function constructedWith<C extends abstract new (...args: never[]) => object>(base: C, prototype: object): C {
  function Message(...args: unknown[]): object {
    return Reflect.construct(base, args, Message) as object;
  }
  Message.prototype = prototype;
  return Message as unknown as C;
}

/**
 * For an express app: Node's request and response classes whose instances are made with
 * the app's `request` and `response` as their prototypes, for `http.createServer`'s
 * options; undefined for another listener. Express sets those prototypes on every
 * request it handles (`Object.setPrototypeOf` of both), moving each object to another
 * hidden class: some 5 µs of a service's request. On objects made with them, the same
 * calls find the prototype already set and change nothing.
 */
export function expressMessageClasses(app: RequestListener): MessageClasses | undefined {
  const { request, response } = app as Partial<Record<'request' | 'response', unknown>>;
  if (!(request instanceof http.IncomingMessage) || !(response instanceof http.ServerResponse)) return undefined;
  return {
    IncomingMessage: constructedWith(http.IncomingMessage, request),
    ServerResponse: constructedWith(http.ServerResponse, response) as typeof http.ServerResponse,
  };
}
