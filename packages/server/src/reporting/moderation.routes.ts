import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuditLog,
  AuditQuery,
  ModerationBody,
  ReportIdParams,
  ReportList,
  ReportListQuery,
  ReportView,
  ReporteeCounts,
  ReporteeCountsQuery,
  ShowReportQuery,
} from './moderation.schemas.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import { actingName } from '../operators/admin-access.routes.js';
import { adminSecurity, apiRoute } from '../http/api-route.js';
import type { ModerationService } from './moderation.service.js';

const moderationRoute = apiRoute({ tags: ['moderation'], security: adminSecurity });

/** The moderation queue, mounted under /admin/v1 (admin bearer token). */
export function moderationRoutes(services: { moderation: ModerationService }): FastifyPluginAsyncTypebox {
  const { moderation } = services;
  return async (app) => {
    app.get(
      '/reports',
      moderationRoute({
        summary: 'List reports, newest first, with filters and cursor pagination',
        querystring: ReportListQuery,
        response: { 200: ReportList },
      }),
      async (request) => moderation.list(request.query),
    );

    app.get(
      '/reports/reportees',
      moderationRoute({
        summary: 'Reports per reportee, most reported first (repeat offenders)',
        querystring: ReporteeCountsQuery,
        response: { 200: ReporteeCounts },
      }),
      async (request) => moderation.reporteeCounts(request.query),
    );

    app.get(
      '/reports/:reportId',
      moderationRoute({
        params: ReportIdParams,
        querystring: ShowReportQuery,
        summary: 'Show a report with its status history and short-lived evidence download links',
        response: { 200: Type.Ref(ReportView) },
      }),
      async (request) =>
        moderation.show(request.params.reportId, {
          moderator: actingName(request, request.query.moderator),
          requestBaseUrl: requestBaseUrl(request),
        }),
    );

    app.post(
      '/reports/:reportId/moderation',
      moderationRoute({
        params: ReportIdParams,
        body: ModerationBody,
        summary:
          'Decide on a report: set its status (open, actioned, dismissed) with a note; kept as history and audited',
        response: { 200: Type.Ref(ReportView) },
      }),
      async (request) =>
        moderation.decide(request.params.reportId, {
          ...request.body,
          moderator: actingName(request, request.body.moderator)!,
        }),
    );

    app.get(
      '/moderation/audit',
      moderationRoute({
        summary: 'Audit log of moderator actions, newest first',
        querystring: AuditQuery,
        response: { 200: AuditLog },
      }),
      async (request) => moderation.audit(request.query),
    );
  };
}
