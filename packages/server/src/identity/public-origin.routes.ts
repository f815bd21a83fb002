import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { RelyingParty } from './passkeys.service.js';

/**
 * Where people's browsers reach the console and the portal (docs/operators.md "Invitations and passkeys"):
 * PUBLIC_ORIGIN when set; else the request's own origin (its Host, or X-Forwarded-Host from TRUSTED_PROXIES), which
 * is the operator's own address when an operator makes a link.
 */
export function publicOrigin(configured: string | undefined, request: FastifyRequest): string {
  return configured ?? `${request.protocol}://${request.host}`;
}

/**
 * The passkeys' relying party: PUBLIC_ORIGIN's (its host name is the RP ID). Unset, only a browser on the same
 * machine (http://localhost:<port>, development and tests) may use passkeys: a Host header is not trusted to name the
 * RP of a public service.
 */
export function relyingParty(configured: string | undefined, request: FastifyRequest, name: string): RelyingParty {
  if (configured) return { id: new URL(configured).hostname, name, origin: configured };
  if (request.hostname.replace(/:\d+$/, '') === 'localhost')
    return { id: 'localhost', name, origin: `${request.protocol}://${request.host}` };
  throw new AppError('CONFLICT', 'passkeys need PUBLIC_ORIGIN set (the address browsers reach this service at)');
}
