import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OverviewSources } from './overview.service.js';
import { Overview, OverviewQuery } from './overview.schemas.js';
import { parseOverviewQuery, readOverview } from './overview.service.js';
import { adminRoute } from '../http/api-route.js';

/** GET /admin/v1/overview: the console's opening page, every series of one window (docs/console.md, "Overview"). */
export function overviewRoutes(deps: { overview: { platform: OverviewSources } }): FastifyPluginAsyncTypebox {
  const sources = deps.overview.platform;
  return async (app) => {
    app.addSchema(Overview);
    app.get(
      '/overview',
      adminRoute({
        summary:
          'Notifications per hour by outcome, attempt latency, failure reasons, orders per day, game-call failures and the open report queue, for a window and an app',
        querystring: OverviewQuery,
        response: { 200: Type.Ref(Overview) },
      }),
      async (request) => readOverview(sources, parseOverviewQuery(request.query, Date.now())),
    );
  };
}
