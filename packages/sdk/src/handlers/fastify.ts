/**
 * Ready-made 5.3 verification for Fastify, without depending on Fastify: inside an
 * encapsulated plugin, every body is kept as raw bytes and every request verified
 * before validation and the route handler.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import {
  attachVerifiedCall,
  rejectionAnswer,
  toVerifier,
  type CallbackVerifier,
  type CallbackVerifierOptions,
} from './verifier.js';

/** The parts of a FastifyRequest used here. */
export interface FastifyLikeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  raw: IncomingMessage;
}

/** The parts of a FastifyReply used here. */
export interface FastifyLikeReply {
  code(statusCode: number): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: unknown): FastifyLikeReply;
}

/** The parts of a FastifyInstance used here. */
export interface FastifyLikeInstance {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (request: never, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  addHook(
    name: 'preValidation',
    hook: (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>,
  ): unknown;
}

export interface FastifyCallbackHooks {
  /** Called for every refused request, e.g. to log it. */
  onRejected?: (err: Error, request: FastifyLikeRequest) => void;
}

/**
 * Call inside an encapsulated plugin; every route of that plugin then receives only
 * verified calls, with `request.body` the parsed JSON and `verifiedCallOf(request)`
 * the verified call. A refused call is answered (401 signature, 400) before
 * validation and the handler; a body over maxBodyBytes gets Fastify's 413.
 *
 *   app.register(async (scope) => {
 *     installFastifyCallbacks(scope, { publicKeys });
 *     scope.post('/pay/callback', async (request, reply) => { ... });
 *   });
 */
export function installFastifyCallbacks(
  scope: FastifyLikeInstance,
  options: (CallbackVerifierOptions & FastifyCallbackHooks) | CallbackVerifier,
  hooks: FastifyCallbackHooks = options as FastifyCallbackHooks,
): void {
  const verifier = toVerifier(options);
  // The scope's own parsers only: a plugin without fastify-plugin is encapsulated.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: verifier.maxBodyBytes }, (_request, body, done) =>
    done(null, body),
  );
  scope.addHook('preValidation', async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    try {
      const call = await verifier.verify({
        method: request.method,
        url: request.raw.url ?? request.url,
        headers: request.headers,
        body,
      });
      attachVerifiedCall(request, call);
      request.body = call.json;
    } catch (err) {
      const answer = rejectionAnswer(err);
      if (!answer) throw err;
      hooks.onRejected?.(err as Error, request);
      return reply.code(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.body);
    }
    return undefined;
  });
}
