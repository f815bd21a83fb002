import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { nextBeforeOf } from '../http/admin-query.js';
import { AdminAction, AdminActionList, AdminActionQuery, parseAdminActionQuery } from './admin-audit.schemas.js';
import { operatorOf, type AdminAuditService } from './admin-audit.service.js';
import { adminRoute } from '../http/api-route.js';

/** Who the access hook authenticated (operators/admin-access.routes.ts): the name and account id recorded. */
export type WhoIs = (request: FastifyRequest) => { operator: string; operatorId: number | null };

/**
 * Hooks of the /admin/v1 scope (routes.ts): the X-Operator header is checked on every admin request, and each one
 * that changes something is recorded before its handler runs and completed with its status after the answer.
 * Runs after authentication and validation: a refused request changes nothing and is not recorded here (the access
 * hooks of operators/ and portal/ record refusals as events, within the trail's bound: refusals.ts). The operator
 * recorded is the authenticated one; the X-Operator header is kept only as a note.
 */
const SELF_RECORDED =
  /^\/(admin|portal)\/v1\/(session(\/passkey(-options)?)?|invitation(\/(totp|passkey-options|accept))?)$/;

export function recordAdminActions(scope: FastifyInstance, audit: AdminAuditService, whoIs: WhoIs): void {
  const started = new WeakMap<FastifyRequest, number>();
  scope.addHook('preHandler', async (request) => {
    const named = operatorOf(request.headers['x-operator']);
    if (request.method === 'GET' || request.method === 'HEAD') return;
    // The sign-ins record themselves (login / login-failed events), and so does an invitation's completion
    // (invitation-accepted); the rest of the invitee's side (what the link is for, a challenge) changes no account.
    if (SELF_RECORDED.test(request.routeOptions.url ?? '') && request.method === 'POST') return;
    started.set(
      request,
      await audit.start({
        ...whoIs(request),
        note: named === null ? null : `X-Operator: ${named}`,
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
export function adminAuditRoutes(services: { adminAudit: Pick<AdminAuditService, 'list'> }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(AdminAction);
    app.get(
      '/admin-actions',
      adminRoute({
        summary:
          'The audit trail of the admin API: every request that changed something, the authenticated operator and its status, sign-ins and account changes, newest first',
        querystring: AdminActionQuery,
        response: { 200: AdminActionList },
      }),
      async (request) => {
        const filter = parseAdminActionQuery(request.query);
        const actions = await services.adminAudit.list(filter);
        return { actions, nextBefore: nextBeforeOf(actions, filter.limit, (a) => a.actionId) };
      },
    );
  };
}
