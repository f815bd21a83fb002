import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { App, AppCreateBody, AppIdParams, AppList, AppPatchBody, AppWithSecret } from './apps.schemas.js';

const tags = ['admin'];
const security = [{ adminBearer: [] }];

/** Admin API of the app registry, mounted under /admin/v1. */
export function appRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/apps',
      {
        schema: {
          tags,
          security,
          summary: 'Register an app (one game integration); answers its secret once',
          body: AppCreateBody,
          response: { 201: AppWithSecret, ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const { app: created, secret } = await services.apps.create(request.body);
        return reply.code(201).send({ ...created, secret });
      },
    );

    app.get(
      '/apps',
      {
        schema: { tags, security, summary: 'List apps', response: { 200: AppList, ...platformErrorResponses } },
      },
      async () => ({ apps: await services.apps.list() }),
    );

    app.get(
      '/apps/:appId',
      {
        schema: {
          tags,
          security,
          summary: 'Show an app',
          params: AppIdParams,
          response: { 200: Type.Ref(App), ...platformErrorResponses },
        },
      },
      async (request) => services.apps.get(Number(request.params.appId)),
    );

    app.patch(
      '/apps/:appId',
      {
        schema: {
          tags,
          security,
          summary: 'Change an app',
          params: AppIdParams,
          body: AppPatchBody,
          response: { 200: Type.Ref(App), ...platformErrorResponses },
        },
      },
      async (request) => services.apps.update(Number(request.params.appId), request.body),
    );

    app.post(
      '/apps/:appId/rotate-secret',
      {
        schema: {
          tags,
          security,
          params: AppIdParams,
          summary: 'New md5 secret; the previous one stays valid for SECRET_GRACE_SECONDS',
          response: { 200: AppWithSecret, ...platformErrorResponses },
        },
      },
      async (request) => {
        const { app: rotated, secret } = await services.apps.rotateSecret(Number(request.params.appId));
        return { ...rotated, secret };
      },
    );
  };
}
