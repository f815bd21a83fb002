import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { PAGE_CSP, staticPageRoutes } from '../http/static-page.js';

/**
 * The operator console: static files (packages/server/console, beside src and
 * dist, so the compiled file finds them at ../../console) served at /console,
 * plus the Preact, hooks and htm ESM builds and the uPlot charts from their npm
 * packages under /console/vendor (http/static-page.ts). The page is public; every data call it
 * makes goes to the admin API with the session cookie or a bearer token.
 */

/** Where the console's files are, relative to this file in src/console or dist/console. */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../console/', import.meta.url));

export const CONSOLE_CSP = PAGE_CSP;

export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  await staticPageRoutes(app, { root: CONSOLE_ROOT, prefix: '/console', what: 'console', title: 'Operator console' });
}
