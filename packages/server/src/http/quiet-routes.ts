import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A health check or a static file (issue 41): its request line is logged at debug, not info, and it makes no
     * span unless TRACE_QUIET_ROUTES=true. 92 of the 112 lines of a first run were these.
     */
    quiet?: boolean;
  }
}

/** Marks every route registered in `scope` from now on (and in its children) quiet: a page's script and style files. */
export function quietRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, quiet: true };
  });
}

/** Whether the request's route is a quiet one (health check, static file). */
export function isQuiet(request: FastifyRequest): boolean {
  return request.routeOptions.config?.quiet === true;
}
