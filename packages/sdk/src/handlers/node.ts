/** Ready-made 5.3 handler for node:http: raw body -> verify -> the game's handler. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from '../answers/answer.js';
import { readRawBody } from './raw-body.js';
import { sendAnswer } from './send-answer.js';
import {
  attachVerifiedCall,
  rejectionAnswer,
  toVerifier,
  type CallbackVerifier,
  type CallbackVerifierOptions,
  type VerifiedCall,
} from './verifier.js';

/** The game's handler: gets only verified calls. Return an Answer, or write `res` yourself before returning. */
export type CallbackHandler = (
  call: VerifiedCall,
  req: IncomingMessage,
  res: ServerResponse,
) => Answer | void | Promise<Answer | void>;

export interface HandlerHooks {
  /** Called for every refused request (bad signature, replay, too large, not JSON), e.g. to log it. */
  onRejected?: (err: Error, req: IncomingMessage) => void;
  /** Called when the game's handler throws; the platform gets a 500. Default: console.error. */
  onError?: (err: unknown, req: IncomingMessage) => void;
}

const INTERNAL: Answer = {
  status: 500,
  body: { code: 500, msg: 'internal error', detail: 'the game server failed to handle the call' },
};

/**
 * A node:http request listener that reads the raw body, verifies it (5.3) and calls
 * `handler` with the verified call. A refused request is answered (401 for a
 * signature failure, 413, 400) and never reaches `handler`.
 *
 *   http.createServer(nodeCallbackHandler({ publicKeys }, (call) => acceptNotification()))
 */
export function nodeCallbackHandler(
  options: (CallbackVerifierOptions & HandlerHooks) | CallbackVerifier,
  handler: CallbackHandler,
  hooks: HandlerHooks = options as HandlerHooks,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const verifier = toVerifier(options);
  return async (req, res) => {
    let call: VerifiedCall;
    try {
      const body = await readRawBody(req, verifier.maxBodyBytes);
      call = await verifier.verify({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
    } catch (err) {
      const answer = rejectionAnswer(err);
      if (!answer) {
        (hooks.onError ?? defaultOnError)(err, req);
        sendAnswer(res, INTERNAL);
        return;
      }
      hooks.onRejected?.(err as Error, req);
      if (answer.status === 413) res.setHeader('connection', 'close');
      sendAnswer(res, answer);
      return;
    }
    attachVerifiedCall(req, call);
    try {
      const answer = await handler(call, req, res);
      if (answer) {
        if (!res.headersSent) sendAnswer(res, answer);
      } else if (!res.headersSent) {
        // Never accept by accident: a handler that forgot to answer must not ack a payment.
        throw new Error('the callback handler returned no Answer and wrote no response');
      }
    } catch (err) {
      (hooks.onError ?? defaultOnError)(err, req);
      if (!res.headersSent) sendAnswer(res, INTERNAL);
      else res.destroy();
    }
  };
}

function defaultOnError(err: unknown): void {
  console.error('platform callback handler failed:', err);
}
