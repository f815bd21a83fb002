import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { auditContext, principalOf } from '../operators/admin-access.routes.js';
import { PasswordResetBody, SecondFactor } from '../operators/operators.schemas.js';
import {
  DeveloperCreateBody,
  DeveloperCreated,
  DeveloperNameParams,
  DeveloperPatchBody,
  StudioDeveloper,
} from './portal.schemas.js';

const tags = ['admin'];

/** Operators invite and manage studio developer accounts, mounted under /admin/v1 (docs/portal.md). */
export function studioDeveloperRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { studioDevelopers: developers } = services;
  return async (app) => {
    app.addSchema(StudioDeveloper);

    app.get(
      '/studio-developers',
      {
        schema: {
          tags,
          summary: 'List studio developer accounts (portal) with their apps',
          response: {
            200: Type.Object({ developers: Type.Array(Type.Ref(StudioDeveloper)) }),
            ...platformErrorResponses,
          },
        },
      },
      async () => ({ developers: await developers.list() }),
    );

    app.post(
      '/studio-developers',
      {
        schema: {
          tags,
          summary: 'Invite a studio developer for some apps; answers its password, TOTP secret and recovery codes once',
          body: DeveloperCreateBody,
          response: { 201: DeveloperCreated, ...platformErrorResponses },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await developers.create(request.body, principalOf(request).name, auditContext(request))),
    );

    app.get(
      '/studio-developers/:name',
      {
        schema: {
          tags,
          summary: 'Show a studio developer',
          params: DeveloperNameParams,
          response: { 200: Type.Ref(StudioDeveloper), ...platformErrorResponses },
        },
      },
      async (request) => developers.get(request.params.name),
    );

    app.patch(
      '/studio-developers/:name',
      {
        schema: {
          tags,
          summary: "Change a studio developer's apps or disable it (taking apps away or disabling ends its sessions)",
          params: DeveloperNameParams,
          body: DeveloperPatchBody,
          response: { 200: Type.Ref(StudioDeveloper), ...platformErrorResponses },
        },
      },
      async (request) =>
        developers.update(request.params.name, request.body, principalOf(request).name, auditContext(request)),
    );

    app.post(
      '/studio-developers/:name/reset-totp',
      {
        schema: {
          tags,
          summary: 'New TOTP secret and recovery codes for a studio developer (shown once); its sessions end',
          params: DeveloperNameParams,
          response: { 200: SecondFactor, ...platformErrorResponses },
        },
      },
      async (request) =>
        developers.resetSecondFactor(request.params.name, principalOf(request).name, auditContext(request)),
    );

    app.post(
      '/studio-developers/:name/reset-password',
      {
        schema: {
          tags,
          summary: 'New password for a studio developer (given or generated, shown once); lifts a lock',
          params: DeveloperNameParams,
          body: PasswordResetBody,
          response: { 200: Type.Object({ password: Type.String() }), ...platformErrorResponses },
        },
      },
      async (request) =>
        developers.resetPassword(
          request.params.name,
          request.body.password,
          principalOf(request).name,
          auditContext(request),
        ),
    );
  };
}
