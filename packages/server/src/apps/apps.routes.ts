import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { App, AppCreateBody, AppList, AppPatchBody, AppWithSecret } from './apps.schemas.js';
import { AppIdParams } from '../http/route-params.js';
import { adminRoute } from '../http/api-route.js';
import type { AppService } from './apps.service.js';

/** Admin API of the app registry, mounted under /admin/v1. */
export function appRoutes(services: { apps: AppService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/apps',
      adminRoute({
        summary: 'Register an app (one game integration); answers its secret once',
        body: AppCreateBody,
        response: { 201: AppWithSecret },
      }),
      async (request, reply) => {
        const { app: created, secret } = await services.apps.create(request.body);
        return reply.code(201).send({ ...created, secret });
      },
    );

    app.get('/apps', adminRoute({ summary: 'List apps', response: { 200: AppList } }), async () => ({
      apps: await services.apps.list(),
    }));

    app.get(
      '/apps/:appId',
      adminRoute({
        summary: 'Show an app',
        params: AppIdParams,
        response: { 200: Type.Ref(App) },
      }),
      async (request) => services.apps.get(request.params.appId),
    );

    app.patch(
      '/apps/:appId',
      adminRoute({
        summary: 'Change an app',
        params: AppIdParams,
        body: AppPatchBody,
        response: { 200: Type.Ref(App) },
      }),
      async (request) => services.apps.update(request.params.appId, request.body),
    );

    app.post(
      '/apps/:appId/rotate-secret',
      adminRoute({
        params: AppIdParams,
        summary: 'New md5 secret; the previous one stays valid for SECRET_GRACE_SECONDS',
        response: { 200: AppWithSecret },
      }),
      async (request) => {
        const { app: rotated, secret } = await services.apps.rotateSecret(request.params.appId);
        return { ...rotated, secret };
      },
    );
  };
}
