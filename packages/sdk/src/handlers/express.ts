/**
 * Ready-made 5.3 middleware for Express (4 or 5), without depending on Express.
 * It verifies the bytes exactly as received: mount it before any JSON body parser,
 * or after `express.raw({ type: '*\/*' })`.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRawBody } from './raw-body.js';
import { sendAnswer } from './send-answer.js';
import type { HandlerHooks } from './node.js';
import {
  attachVerifiedCall,
  rejectionAnswer,
  toVerifier,
  type CallbackVerifier,
  type CallbackVerifierOptions,
} from './verifier.js';

/** The parts of an Express request the middleware uses (Express's Request has them all). */
export type ExpressLikeRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/** A body parser already consumed the stream and kept no raw bytes: nothing can be verified. */
export class RawBodyUnavailableError extends Error {
  constructor() {
    super(
      'the request body was already parsed, so its raw bytes cannot be verified (5.3): mount the platform callback ' +
        'middleware before express.json()/express.urlencoded(), or use express.raw({ type: "*/*" }) on these routes',
    );
    this.name = 'RawBodyUnavailableError';
  }
}

/**
 * Express middleware: verifies the call, then sets `req.body` to the parsed JSON and
 * calls `next()`; `verifiedCallOf(req)` gives the verified call (raw bytes, key id,
 * nonce, query). A refused call is answered (401 signature, 413, 400) and `next` is
 * not called. A body already parsed without its raw bytes is a set-up error: `next(err)`.
 */
export function expressCallbackMiddleware(
  options: (CallbackVerifierOptions & HandlerHooks) | CallbackVerifier,
  hooks: HandlerHooks = options as HandlerHooks,
): (req: ExpressLikeRequest, res: ServerResponse, next: (err?: unknown) => void) => void {
  const verifier = toVerifier(options);
  return (req, res, next) => {
    void (async () => {
      let body: Buffer;
      try {
        body = await rawBodyOf(req, verifier.maxBodyBytes);
      } catch (err) {
        if (err instanceof RawBodyUnavailableError) return next(err);
        return refuse(err);
      }
      try {
        // originalUrl: inside a mounted router, req.url lacks the mount path, but the platform signed the full path.
        const call = await verifier.verify({
          method: req.method ?? 'GET',
          url: req.originalUrl ?? req.url ?? '/',
          headers: req.headers,
          body,
        });
        attachVerifiedCall(req, call);
        req.body = call.json;
      } catch (err) {
        return refuse(err);
      }
      next();
    })();

    function refuse(err: unknown): void {
      const answer = rejectionAnswer(err);
      if (!answer) return next(err);
      hooks.onRejected?.(err as Error, req);
      if (answer.status === 413) res.setHeader('connection', 'close');
      sendAnswer(res, answer);
    }
  };
}

async function rawBodyOf(req: ExpressLikeRequest, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.body)) return req.body; // express.raw()
  if (!req.readableEnded && !(req as { _body?: boolean })._body) return readRawBody(req, limit);
  // The stream is consumed. Fine only if there was no body at all.
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return Buffer.alloc(0);
  throw new RawBodyUnavailableError();
}
