import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the same
 * TypeBox schemas that validate requests), served at /openapi.json, with a
 * browsable reference at /docs.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Game platform service',
        version: '1.0.0',
        description:
          'Player reporting, accounts, orders and signed game callbacks. See docs/ in the repository for the signing schemes and error codes.',
      },
      components: {
        securitySchemes: {
          adminBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An operator API token (gpo_...), or the break-glass ADMIN_TOKEN (docs/operators.md)',
          },
          operatorSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'gp_operator_session',
            description:
              'Console sign-in (POST /admin/v1/session); send X-CSRF-Token on requests that change something',
          },
          studioSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'gp_studio_session',
            description:
              'Studio portal sign-in (POST /portal/v1/session); send X-CSRF-Token on requests that change something',
          },
          macToken: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'MAC id="..",ts="..",nonce="..",mac=".." (spec 5.2)',
          },
        },
      },
      tags: [
        { name: 'health', description: 'Liveness, readiness, metrics' },
        { name: 'admin', description: 'Operator API (/admin/v1)' },
        { name: 'portal', description: "Studio portal API (/portal/v1): a studio developer's own apps only" },
        { name: 'stores', description: 'App Store and Google Play notifications (/notify/v1)' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
