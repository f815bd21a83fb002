import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '../errors/app-error.js';
import { sendError } from './error-handler.js';
import { loadEsmVendor, vendorType } from './esm-vendor.js';
import { quietRoutes } from './quiet-routes.js';

/**
 * A browser page of static ES modules (the operator console, the studio portal): its HTML (pageHtml: `title`, the
 * module `prefix`/app.js) and the files under `root` served at `prefix`, the Preact, hooks and htm builds at
 * `prefix/vendor/`, every answer with a strict CSP (no inline script) and the other security headers. Hidden from the
 * OpenAPI document; the page is public and its data calls bring their own credentials.
 */

/** What tells one page from another: its title, style sheets, one module script and the text shown without scripts. */
export interface PageShell {
  title: string;
  styles: string[];
  script: string;
  noscript: string;
}

/** The HTML of a page of ES modules: nothing inline (the CSP allows no inline script), the module renders into #root. */
export function pageHtml(page: PageShell): string {
  const styles = page.styles.map((href) => `<link rel="stylesheet" href="${href}">\n`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="icon" href="data:,">
${styles}<script type="module" src="${page.script}"></script>
</head>
<body>
<div id="root"><noscript>${page.noscript}</noscript></div>
</body>
</html>
`;
}

/**
 * The @fastify/static options of a page's files under `prefix`. wildcard: false registers one route per file found
 * under the root at start, so a path that is not exactly one of those files (traversal, encoded dots, directories, dot
 * files) is left to the 404 handler.
 */
export function pageFiles(root: string, prefix: string) {
  return {
    root,
    prefix,
    decorateReply: false,
    wildcard: false,
    index: false,
    redirect: false,
    list: false,
    dotfiles: 'ignore',
    cacheControl: false,
  } as const;
}

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
  opts: { root: string; prefix: string; what: string; title: string },
): Promise<void> {
  // The console and the portal are made of the same kit: both take the console's style sheets.
  const indexHtml = pageHtml({
    title: opts.title,
    styles: ['/console/vendor/uPlot.min.css', '/console/console.css'],
    script: `${opts.prefix}/app.js`,
    noscript: `The ${opts.title.toLowerCase()} needs JavaScript.`,
  });
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

      // The page's scripts, styles and vendor modules: quiet (debug log lines, no spans); the page itself is not.
      await scope.register(async (assets) => {
        quietRoutes(assets);
        assets.get<{ Params: { name: string } }>('/vendor/:name', { schema: { hide: true } }, (request, reply) => {
          const body = vendor.get(request.params.name);
          if (!body) return reply.callNotFound();
          return reply.type(vendorType(request.params.name)).send(body);
        });
        await assets.register(fastifyStatic, pageFiles(opts.root, '/'));
      });

      // Any other path under the prefix: the platform's 404, with the page's headers (the hook above).
      scope.setNotFoundHandler((request, reply) =>
        sendError(request, reply, new AppError('NOT_FOUND', `no ${opts.what} file at ${request.url.split('?')[0]}`)),
      );
    },
    { prefix: opts.prefix },
  );
}
