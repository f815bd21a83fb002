import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { staticPageRoutes } from '../http/static-page.js';

/** Where the portal page's files are (packages/server/portal), from src/portal or dist/portal. */
export const PORTAL_ROOT = fileURLToPath(new URL('../../portal/', import.meta.url));

/** The studio portal page at /portal: static ES modules, as the console (http/static-page.ts). */
export async function portalPageRoutes(app: FastifyInstance): Promise<void> {
  await staticPageRoutes(app, { root: PORTAL_ROOT, prefix: '/portal', what: 'portal', title: 'Studio portal' });
}
