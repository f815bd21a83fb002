import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { CallerApp, ResolveApp } from './caller.js';

/**
 * The IP allow-list of 4.4 as a preHandler: the app of the request's clientId
 * must be active (UNKNOWN_CLIENT) and the caller IP on its allow-list
 * (IP_NOT_ALLOWED). The caller IP is request.ip: the peer, or X-Forwarded-For
 * only when the peer is in TRUSTED_PROXIES (http/server.ts). Attaches
 * `request.caller` with the app.
 */
export function ipAllowListHook<A extends CallerApp>(
  resolveApp: ResolveApp<A>,
  clientId: (request: FastifyRequest) => string,
) {
  return async (request: FastifyRequest): Promise<void> => {
    const app = await resolveApp(clientId(request));
    if (!app.allowList.has(request.ip)) {
      throw new AppError(
        'IP_NOT_ALLOWED',
        `caller IP ${request.ip} is not on the allow-list of clientId ${app.clientId}`,
      );
    }
    request.caller = { app, nonce: null, token: null };
  };
}
