import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { platformErrorResponses } from './schemas.js';

/** What one route declares of its schema; its API adds the rest. */
export interface RouteSchema {
  summary: string;
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  /** The route's own answers, by status; the platform's error answers (2.3) are added beside them. */
  response: Record<number, TSchema>;
}

/** What every route of an API shares in the OpenAPI document. */
export interface ApiShared {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
}

/** Spelled out: TypeScript would widen the spread of a generic `response` to its constraint, losing the route's own answers. */
type ApiRouteSchema<S extends RouteSchema> = ApiShared &
  Omit<S, 'response'> & { response: S['response'] & typeof platformErrorResponses };

/**
 * The route options of an API whose routes share their tags and security and answer the platform's errors:
 * `const adminRoute = apiRoute(...)`, then `app.get(path, adminRoute({ summary, params, response: { 200: X } }), handler)`.
 */
export function apiRoute(shared: ApiShared) {
  return <S extends RouteSchema>({ response, ...own }: S): { schema: ApiRouteSchema<S> } => ({
    schema: { ...shared, ...own, response: { ...response, ...platformErrorResponses } },
  });
}

/** The admin bearer token (or an operator session) of /admin/v1. */
export const adminSecurity = [{ adminBearer: [] }];

/** A route of the admin API (/admin/v1). */
export const adminRoute = apiRoute({ tags: ['admin'], security: adminSecurity });

/** An admin route that deletes what its params name (an app's settings of one store, of one provider): 204, no body. */
export function adminDelete<P extends TSchema>(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  route: { path: string; summary: string; params: P; remove(params: Static<P>): Promise<unknown> },
): void {
  app.delete(
    route.path,
    adminRoute({ summary: route.summary, params: route.params, response: { 204: Type.Null() } }),
    async (request, reply) => {
      await route.remove(request.params as Static<P>);
      return reply.code(204).send(null);
    },
  );
}

/** A route of the studio portal's API (/portal/v1): its tags and security are added for the whole scope (installPortalAccess). */
export const portalRoute = apiRoute({});
