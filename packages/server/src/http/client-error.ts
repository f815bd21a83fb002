import crypto from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { envelopeOfPath, errorBody, toAppError } from './error-handler.js';

/**
 * Answers of refusals that Node's HTTP server makes before Fastify has a
 * request to route, in the same envelopes (error-handler.ts errorBody) as
 * every other error, instead of Node's or Fastify's own bodies.
 */

/** An error answer outside Fastify: status, headers and the JSON body of the path's envelope. */
function rawAnswer(
  error: AppError,
  path: string | undefined,
): { status: number; headers: Record<string, string>; body: string } {
  const body = JSON.stringify(errorBody(error, envelopeOfPath(path ?? '/')));
  return {
    status: error.httpStatus,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      // Every answer carries a request id (http/server.ts); these never had a request, so a fresh one.
      'x-request-id': crypto.randomUUID(),
      ...error.headers,
    },
    body,
  };
}

/** The path of the request line at the start of the bytes, if they hold one (`GET /svc/... HTTP/1.1`). */
function requestLinePath(raw: Buffer | undefined): string | undefined {
  if (!raw) return undefined;
  return /^[A-Z]+ (\/[^\s?]*)/.exec(raw.toString('latin1', 0, 512))?.[1];
}

/**
 * Fastify's `clientErrorHandler` (Node's `clientError` event): a request line or header the parser refuses (400
 * MALFORMED_REQUEST), headers past Node's maxHeaderSize (431 HEADERS_TOO_LARGE), a request not received within
 * HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (408 REQUEST_TIMEOUT). The envelope follows the path: that of a request
 * whose headers were read (a slow body), else the request line in the refused bytes. When neither is known (headers
 * too slow, or a large header sent in pieces so that the refused bytes start after the request line) it is the
 * platform envelope. The connection is closed after the answer: the parser cannot go on after such an error.
 */
export function answerClientError(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset, or a connection we already answered and ended: there is nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // The response of a request whose headers were read. Node's own answer makes the same check
  // (lib/_http_server.js, socketOnError): once its head is sent, another answer would corrupt the stream.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const error = toAppError(err);
  const { status, headers, body } = rawAnswer(
    error,
    inFlight?.req.url ?? requestLinePath((err as { rawPacket?: Buffer }).rawPacket),
  );
  // Mostly network noise (scanners, idle connections of a load balancer): not worth an info line each.
  this.log.debug(
    { reqId: headers['x-request-id'], reason: error.reason, err: err.code },
    'request refused by the HTTP parser',
  );
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'connection: close',
  ];
  // end, then destroy once written: the client gets the whole answer, and a client that never closes its side
  // does not keep the socket.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * Node's `checkExpectation` event: a request with an `Expect` other than 100-continue, which Node would answer
 * with an empty 417. The expectation cannot be met, so the request is not routed (RFC 9110 10.1.1).
 */
export function answerUnmetExpectation(request: IncomingMessage, response: ServerResponse): void {
  const { status, headers, body } = rawAnswer(
    new AppError('EXPECTATION_FAILED', 'the Expect header asks for something other than 100-continue'),
    request.url,
  );
  response.writeHead(status, headers).end(body);
}
