import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '../errors/app-error.js';
import { sendError } from '../errors/handler.js';
import { loadEsmVendor, vendorType } from './esm-vendor.js';

/**
 * A browser page of static ES modules (the operator console, the studio portal): `index.html` and the files under
 * `root` served at `prefix`, the Preact, hooks and htm builds at `prefix/vendor/`, every answer with a strict CSP (no
 * inline script) and the other security headers. Hidden from the OpenAPI document; the page is public and its data
 * calls bring their own credentials.
 */

export const PAGE_CSP = [
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
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

export async function staticPageRoutes(
  app: FastifyInstance,
  opts: { root: string; prefix: string; what: string },
): Promise<void> {
  const indexHtml = fs.readFileSync(`${opts.root}index.html`);
  const vendor = loadEsmVendor(`${opts.prefix}/vendor/`);
  const htmlPath = new RegExp(`^${opts.prefix}(/|/[^?]*\\.html)?(\\?|$)`);

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', (request, reply, done) => {
        reply.headers(SECURITY_HEADERS);
        // The page itself is never stored; the scripts and styles are revalidated (ETag) on each load.
        reply.header('cache-control', htmlPath.test(request.url) ? 'no-store' : 'no-cache');
        done();
      });

      // Under the prefix, '/' answers both /prefix and /prefix/.
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
        root: opts.root,
        prefix: '/',
        decorateReply: false,
        wildcard: false,
        index: false,
        redirect: false,
        list: false,
        dotfiles: 'ignore',
        cacheControl: false,
      });

      // Any other path under the prefix: the platform's 404, with the page's headers (the hook above).
      scope.setNotFoundHandler((request, reply) =>
        sendError(request, reply, new AppError('NOT_FOUND', `no ${opts.what} file at ${request.url.split('?')[0]}`)),
      );
    },
    { prefix: opts.prefix },
  );
}
