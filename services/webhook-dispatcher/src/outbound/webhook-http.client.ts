import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Logger } from '@firewatch/logger';
import type { AddressPolicy } from '../domain/address-policy.js';
import { ATTEMPT_ERRORS, publicAttemptError } from '../domain/attempt-error.js';
import type { AttemptResult } from '../domain/attempt-outcome.js';
import { parseRetryAfter } from '../domain/retry-policy.js';

export interface WebhookHttpOptions {
  policy: AddressPolicy;
  /** Whole attempt: connect, send, response headers and body. */
  timeoutMs: number;
  /** Bytes of response body read (and stored); the connection is dropped past this. */
  maxResponseBytes: number;
  /** Gets the detail of each failed request; the attempt stores only a generic text. */
  logger?: Logger;
}

/** `headers` name each header once (case aside) and neither Host nor Content-Length, which the client sets. */
export type PostWebhook = (url: string, headers: Record<string, string>, body: string) => Promise<AttemptResult>;

/**
 * An endpoint URL as every attempt to it uses it: parsed, its literal address judged, and
 * what Node would make of it on every attempt made once: the request's options
 * (`urlToHttpOptions`, but only what a request reads) and its Host header (`URL.host`:
 * brackets for IPv6, the port unless the scheme's own).
 */
type Target =
  | { url: URL; host: string; refusal: string | null; options: http.RequestOptions; hostHeader: string; authorization: string | null }
  | { error: Error };

// URLs remembered (endpoints sent to); past this the memo starts afresh.
const TARGETS_MAX = 1024;

/**
 * Resolves like the system resolver, then keeps only addresses the policy allows and
 * hands those to the socket: the address checked is the address connected to, so DNS
 * rebinding between check and connect is impossible.
 */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const allowed = addresses.filter((a) => policy.refusal(a.address) === null);
      if (!allowed.length) {
        const reason = addresses.map((a) => policy.refusal(a.address)).filter(Boolean)[0] ?? 'no address';
        return callback(Object.assign(new Error(`${hostname}: ${reason}`), { code: 'EADDRREFUSED' }), '', 0);
      }
      if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      else callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/**
 * POSTs one webhook: keep-alive agents, no redirects followed (a 3xx is just a status),
 * a deadline over the whole exchange, and at most `maxResponseBytes` read.
 */
export function createWebhookHttpClient(opts: WebhookHttpOptions): PostWebhook & { close(): void; protocolOf(url: string): string } {
  const lookup = guardedLookup(opts.policy);
  // Parsed once per endpoint URL, not per attempt (the policy is fixed, so its answer for a literal address is too).
  const targets = new Map<string, Target>();
  const targetOf = (url: string): Target => {
    let target = targets.get(url);
    if (target) return target;
    try {
      const parsed = new URL(url);
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      const { protocol, hostname, port, path, auth } = urlToHttpOptions(parsed);
      target = {
        url: parsed,
        host,
        refusal: net.isIP(host) ? opts.policy.refusal(host) : null,
        options: { protocol, hostname, port, path },
        hostHeader: parsed.host,
        // Credentials in the URL are refused when stored; an older row's still go as Node sent them.
        authorization: auth ? `Basic ${Buffer.from(auth).toString('base64')}` : null,
      };
    } catch (err) {
      target = { error: err as Error };
    }
    if (targets.size >= TARGETS_MAX) targets.clear();
    targets.set(url, target);
    return target;
  };
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 32, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 32, lookup } as https.AgentOptions),
  };

  const post = (url: string, headers: Record<string, string>, body: string) =>
    new Promise<AttemptResult>((resolve) => {
      const started = performance.now();
      // Set once the request exists; `finish` may run before that (a refused address), when there is none to clear.
      // eslint-disable-next-line prefer-const
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      let timedOut = false;
      const finish = (r: Omit<AttemptResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: Math.round(performance.now() - started) });
      };
      const fail = (error: string) => finish({ statusCode: null, responseBody: null, retryAfterMs: null, error });
      const parsed = targetOf(url);
      if ('error' in parsed) return fail(ATTEMPT_ERRORS.invalidUrl);
      const { url: target, host, refusal, options, hostHeader, authorization } = parsed;
      const failWith = (publicText: string, detail: string) => {
        opts.logger?.warn('webhook attempt failed', { host, error: publicText, detail });
        fail(publicText);
      };
      if (refusal) return failWith(ATTEMPT_ERRORS.notAllowed, refusal);
      const transport = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
      if (!transport) return fail(`unsupported scheme ${target.protocol}`);
      // A list, not an object: Node writes a list as given (still refusing bad names and
      // values), where it validated, lowercased and stored each of an object's into a map
      // first, then looked Host, Authorization and Expect up there.
      const payload = Buffer.from(body, 'utf8');
      const list: string[] = [];
      for (const name in headers) list.push(name, headers[name]);
      list.push('content-length', String(payload.length), 'host', hostHeader);
      if (authorization && !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'))
        list.push('authorization', authorization);
      // The agent's options carry the guarded lookup to every connection it makes.
      const req = transport.request({ ...options, method: 'POST', agent: agents[target.protocol as 'http:' | 'https:'], headers: list });
      timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new Error('attempt deadline'));
      }, opts.timeoutMs);
      req.on('error', (err: Error & { code?: string }) => {
        if (timedOut) return fail(`timed out after ${opts.timeoutMs} ms`);
        failWith(publicAttemptError(err), `${err.code ?? ''} ${err.message}`.trim());
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: res.statusCode ?? null,
            responseBody: Buffer.concat(chunks).toString('utf8'),
            retryAfterMs: parseRetryAfter(res.headers['retry-after'] as string | undefined),
            error: size > opts.maxResponseBytes ? `response body larger than ${opts.maxResponseBytes} bytes, truncated` : null,
          });
        res.on('data', (chunk: Buffer) => {
          const room = opts.maxResponseBytes - size;
          size += chunk.length;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          if (size > opts.maxResponseBytes) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
      // The body as bytes, never a string: Node glues a string first chunk to the head and
      // encodes both as UTF-8, so a custom header's obs-text (U+0080-U+00FF, which the API
      // accepts: a receiver's credential) would reach it as other bytes than the latin1 head's.
      req.end(payload);
    });

  return Object.assign(post, {
    /** `new URL(url).protocol`, from the memo; throws as `new URL` does on an invalid URL. */
    protocolOf(url: string): string {
      const target = targetOf(url);
      if ('error' in target) throw target.error;
      return target.url.protocol;
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}
