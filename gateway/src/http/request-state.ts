import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { NextFunction } from 'express';
import type { ResolvedCredential } from '../domain/credential-resolver.js';

/** An ingestion request (ingest.middleware.ts): an alert source's payload or a heartbeat's ping; no API credential, its own secret. */
export interface IngestionRequest {
  /** The alert source or heartbeat the path names. */
  sourceId: string;
  /** Passed to on-call, which alone can judge it. */
  secret: string;
  /** on-call's answer: a 401 counts against the client's guessing budget, a 2xx vouches for the secret; its headers tell the source's limit. */
  answered(status: number, headers: IncomingHttpHeaders): void;
}

/** An alert action link opened (alert-actions.middleware.ts): no API credential, the link's token. */
export interface LinkActionRequest {
  /** Passed to on-call in its own header; on-call alone can judge it. */
  token: string;
  /** on-call's answer: a 404 (a link it does not know) counts against the client's guessing budget. */
  answered(status: number): void;
}

/** What the gateway learns about one request as it passes the middleware chain. */
export interface GatewayState {
  /** The resolved API credential; null on an ingestion request. */
  credential: ResolvedCredential | null;
  ingestion?: IngestionRequest;
  linkAction?: LinkActionRequest;
  /** The chain's `next`, kept so proxy events that fire later can still answer errors. */
  next?: NextFunction;
  /** Body bytes seen so far, when counted while streaming (no Content-Length). */
  received: number;
  /** An error answer was chosen; later proxy errors are the echo of aborting and are ignored. */
  failed: boolean;
}

const STATE = Symbol('firewatch.gateway.state');

type WithState = IncomingMessage & { [STATE]?: GatewayState };

export function attachState(
  req: IncomingMessage,
  credential: ResolvedCredential | null,
  ingestion?: IngestionRequest,
  linkAction?: LinkActionRequest,
): GatewayState {
  const state: GatewayState = { credential, ingestion, linkAction, received: 0, failed: false };
  (req as WithState)[STATE] = state;
  return state;
}

/** The request's state; undefined before authentication (and outside /v1). */
export function stateOf(req: IncomingMessage): GatewayState | undefined {
  return (req as WithState)[STATE];
}
