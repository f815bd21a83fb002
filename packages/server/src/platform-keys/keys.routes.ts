import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Text } from '../http/schemas.js';
import type { Services } from '../services.js';
import { adminRoute } from '../http/api-route.js';

export const PublicKey = Type.Object(
  {
    kid: Type.String({ description: 'Key id; calls to games carry it in the Key-Id header.' }),
    publicKeyPem: Type.String(),
    status: Type.Union([Type.Literal('signing'), Type.Literal('published'), Type.Literal('retired')]),
    createdAt: Type.String({ format: 'date-time' }),
    retiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'PlatformPublicKey' },
);

/** The platform public keys (5.3) that games verify our calls with. */
export function platformKeyRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(PublicKey);
    app.get(
      '/platform-keys',
      adminRoute({
        summary: 'Platform public keys (PEM) with their key ids',
        response: { 200: Type.Object({ keys: Type.Array(Type.Ref(PublicKey)) }) },
      }),
      async () => ({ keys: await services.keys.list() }),
    );

    app.post(
      '/platform-keys/rotate',
      adminRoute({
        summary: 'Add a new key pair that signs from now on',
        response: { 201: Type.Ref(PublicKey) },
      }),
      async (_request, reply) => reply.code(201).send(await services.keys.rotate()),
    );

    app.post(
      '/platform-keys/:kid/retire',
      adminRoute({
        summary: 'Stop publishing an old key',
        params: Type.Object({ kid: Text({ maxLength: 64 }) }),
        response: { 204: Type.Null() },
      }),
      async (request, reply) => {
        await services.keys.retire(request.params.kid);
        return reply.code(204).send(null);
      },
    );
  };
}
