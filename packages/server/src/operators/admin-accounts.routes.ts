import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { registerAccountRoutes, type AccountRoutes } from '../identity/people.routes.js';
import { publicOrigin } from '../identity/public-origin.routes.js';
import { auditContext } from '../identity/session-access.routes.js';
import { principalOf } from './admin-access.routes.js';

/**
 * One realm's accounts managed through the admin API (operators; studio developers, portal/): the signed-in operator
 * acts, audited with the request's context, and the links point at the public origin.
 */
export function registerAdminAccountRoutes(
  app: FastifyInstance,
  config: Pick<Config, 'PUBLIC_ORIGIN'>,
  spec: Omit<AccountRoutes, 'actor' | 'ctx' | 'origin'>,
): void {
  registerAccountRoutes(app, {
    ...spec,
    actor: (request) => principalOf(request).name,
    ctx: auditContext,
    origin: (request) => publicOrigin(config.PUBLIC_ORIGIN, request),
  });
}
