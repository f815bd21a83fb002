import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.js';
import './quiet-routes.js';

export function registerHealthRoutes(app: FastifyInstance, database: Pick<Database, 'ping' | 'dialect'>): void {
  app.get(
    '/healthz',
    {
      config: { quiet: true },
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { quiet: true },
      schema: {
        tags: ['health'],
        summary: 'The database answers',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }),
          503: Type.Object({ status: Type.Literal('unavailable'), database: Type.String() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await database.ping();
        return { status: 'ready' as const, database: database.dialect.name };
      } catch {
        return reply.code(503).send({ status: 'unavailable' as const, database: database.dialect.name });
      }
    },
  );
}
