import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '../errors/app-error.js';
import { sendError } from '../errors/handler.js';
import { loadEsmVendor, vendorType } from '../http/esm-vendor.js';

/**
 * The operator console: static files (packages/server/console, beside src and
 * dist, so the compiled file finds them at ../../console) served at /console,
 * plus the Preact, hooks and htm ESM builds and the uPlot charts from their npm
 * packages under /console/vendor. The page is public; every data call it makes goes to the
 * admin API with the bearer token. Hidden from the OpenAPI document.
 */

/** Where the console's files are, relative to this file in src/console or dist/console. */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../console/', import.meta.url));

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const HTML_PATH = /^\/console(\/|\/[^?]*\.html)?(\?|$)/;

export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const indexHtml = fs.readFileSync(`${CONSOLE_ROOT}index.html`);
  const vendor = loadEsmVendor('/console/vendor/');

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', (request, reply, done) => {
        reply.headers(SECURITY_HEADERS);
        // The page itself is never stored; the scripts and styles are revalidated (ETag) on each load.
        reply.header('cache-control', HTML_PATH.test(request.url) ? 'no-store' : 'no-cache');
        done();
      });

      // Under the prefix, '/' answers both /console and /console/.
      scope.get('/', { schema: { hide: true } }, (_request, reply) =>
        reply.type('text/html; charset=utf-8').send(indexHtml),
      );

      scope.get<{ Params: { name: string } }>('/vendor/:name', { schema: { hide: true } }, (request, reply) => {
        const body = vendor.get(request.params.name);
        if (!body) return reply.callNotFound();
        return reply.type(vendorType(request.params.name)).send(body);
      });

      // wildcard: false registers one route per file found under the root at start, so a path that is not
      // exactly one of those files (traversal, encoded dots, directories, dot files) is left to the 404 handler.
      await scope.register(fastifyStatic, {
        root: CONSOLE_ROOT,
        prefix: '/',
        decorateReply: false,
        wildcard: false,
        index: false,
        redirect: false,
        list: false,
        dotfiles: 'ignore',
        cacheControl: false,
      });

      // Any other path under /console: the platform's 404, with the console's headers (the hook above).
      scope.setNotFoundHandler((request, reply) =>
        sendError(request, reply, new AppError('NOT_FOUND', `no console file at ${request.url.split('?')[0]}`)),
      );
    },
    { prefix: '/console' },
  );
}
