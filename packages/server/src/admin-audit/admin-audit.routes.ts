import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { nextBeforeOf } from '../http/admin-query.js';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { AdminAction, AdminActionList, AdminActionQuery, parseAdminActionQuery } from './admin-audit.schemas.js';
import { operatorOf, type AdminAuditService } from './admin-audit.service.js';

/**
 * Hooks of the /admin/v1 scope (routes.ts): the X-Operator header is checked on every admin request, and each one
 * that changes something is recorded before its handler runs and completed with its status after the answer.
 * Runs after authentication and validation: a refused request changes nothing and is not recorded.
 */
export function recordAdminActions(scope: FastifyInstance, audit: AdminAuditService): void {
  const started = new WeakMap<FastifyRequest, number>();
  scope.addHook('preHandler', async (request) => {
    const operator = operatorOf(request.headers['x-operator']);
    if (request.method === 'GET' || request.method === 'HEAD') return;
    started.set(
      request,
      await audit.start({
        operator,
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        path: request.url.split('?')[0]!,
        ip: request.ip,
        requestId: request.id,
      }),
    );
  });
  scope.addHook('onResponse', (request, reply, done) => {
    const actionId = started.get(request);
    if (actionId !== undefined) {
      audit
        .finish(actionId, reply.statusCode)
        .catch((err: unknown) => request.log.error({ err, actionId }, 'admin audit: could not record the answer'));
    }
    done();
  });
}

/** Operator API of the audit trail, mounted under /admin/v1. */
export function adminAuditRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(AdminAction);
    app.get(
      '/admin-actions',
      {
        schema: {
          tags: ['admin'],
          security: [{ adminBearer: [] }],
          summary:
            'The audit trail of the admin API: every request that changed something, who sent it (X-Operator) and its status, newest first',
          querystring: AdminActionQuery,
          response: { 200: AdminActionList, ...platformErrorResponses },
        },
      },
      async (request) => {
        const filter = parseAdminActionQuery(request.query);
        const actions = await services.adminAudit.list(filter);
        return { actions, nextBefore: nextBeforeOf(actions, filter.limit, (a) => a.actionId) };
      },
    );
  };
}
