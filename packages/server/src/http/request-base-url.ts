import type { FastifyRequest } from 'fastify';

/** scheme://host[:port] of this service as the caller reached it (forwarded headers only from TRUSTED_PROXIES). */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
