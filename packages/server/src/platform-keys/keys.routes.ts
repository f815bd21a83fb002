import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Text } from '../http/schemas.js';
import type { PlatformKeyService } from './keys.service.js';
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
export function platformKeyRoutes(services: { keys: PlatformKeyService }): FastifyPluginAsyncTypebox {
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

/** What the public endpoint lists of a key: no dates or states a game does not need (`status` is signing|published). */
const PublishedKey = Type.Object({
  kid: Type.String({ description: 'Key id; calls to games carry it in the Key-Id header.' }),
  publicKeyPem: Type.String({ description: 'SPKI PEM of the RSA-2048 public key' }),
  status: Type.Union([Type.Literal('signing'), Type.Literal('published')]),
});

/** How long a game (or a cache between) may keep the list; the SDK fetches again on an unknown key id anyway. */
const KEYS_MAX_AGE_SECONDS = 300;

/**
 * GET /v1/platform-keys: the public keys games verify our calls with (5.3), unauthenticated (public keys are not
 * secret; issue 41), so a game server's SDK fetches them by key id (PlatformKeySet) instead of a PEM copied by hand.
 * Retired keys are left out: a game stops trusting them.
 */
export function publicPlatformKeyRoutes(services: { keys: PlatformKeyService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/platform-keys',
      {
        schema: {
          tags: ['platform keys'],
          summary: 'The platform public keys (5.3) by key id, for games to verify our calls; public',
          response: { 200: Type.Object({ keys: Type.Array(PublishedKey) }) },
        },
      },
      async (_request, reply) => {
        const keys = (await services.keys.list())
          .filter((k) => k.status !== 'retired')
          .map(({ kid, publicKeyPem, status }) => ({ kid, publicKeyPem, status: status as 'signing' | 'published' }));
        reply.header('cache-control', `public, max-age=${KEYS_MAX_AGE_SECONDS}`);
        return { keys };
      },
    );
  };
}
