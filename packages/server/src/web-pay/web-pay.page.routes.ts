import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { AppError } from '../errors/app-error.js';
import { loadEsmVendor } from '../http/esm-vendor.js';
import { pageFiles, pageHtml } from '../http/static-page.js';
import { quietRoutes } from '../http/quiet-routes.js';
import type { AppService } from '../apps/apps.service.js';
import type { PaySession, PaySessions } from './session.js';
import type { PayLinkService } from './pay-links.js';
import type { WebPaySettingsService } from './web-pay-settings.js';
import type { WebPayService } from './web-pay.service.js';
import { ClientIdParams } from './web-pay.schemas.js';

/** The page's static files (packages/server/web-pay, beside src and dist). */
export const WEB_PAY_ROOT = fileURLToPath(new URL('../../web-pay/', import.meta.url));

/**
 * The page's CSP: its own scripts and styles only (no inline script), its API only, avatars from http(s) URLs, and
 * `frame-ancestors` the app's list (web-pay settings), else 'none' (docs/web-payment.md, "Embedding the page").
 */
export function webPayCsp(frameAncestors: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https: http:",
    "connect-src 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}
const WEB_PAY_CSP = webPayCsp();

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': WEB_PAY_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The page's headers on everything under /pay: its CSP and no caching of the page and its API (files revalidate). */
export async function pageHeaders(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.headers(SECURITY_HEADERS);
  reply.header('cache-control', request.url.startsWith('/pay/assets/') ? 'no-cache' : 'no-store');
}

/**
 * The framing of a page of an app that lists frame ancestors: its CSP names them and X-Frame-Options (which can
 * only deny or allow the same origin) is dropped, so the listed game pages may frame it.
 */
export function allowFraming(reply: FastifyReply, frameAncestors: string[]): void {
  if (frameAncestors.length === 0) return;
  reply.header('content-security-policy', webPayCsp(frameAncestors));
  reply.removeHeader('x-frame-options');
}

/** The web payment page's services (web-pay.module.ts builds them). */
export interface WebPayServices {
  page: WebPayService;
  links: PayLinkService;
  sessions: PaySessions;
  settings: WebPaySettingsService;
}

/** What the page routes use. */
export interface WebPayPageDeps {
  webPay: WebPayServices;
  apps: Pick<AppService, 'resolveByClientId' | 'requireActive'>;
}

/** The session's Set-Cookie for the app's page (SameSite=None; Partitioned when the app lets sites frame it). */
export function sessionSetCookie(
  services: { webPay: Pick<WebPayServices, 'sessions'> },
  request: FastifyRequest,
  session: PaySession | null,
  frameAncestors: string[],
): string {
  return services.webPay.sessions.setCookie(session, request.hostname, frameAncestors.length > 0);
}

/**
 * The official web payment page (issue 18): GET /pay/{clientId}, its launch links (/pay/{clientId}/link/{token}:
 * opened once, they start the page session and redirect to the page) and its static files under /pay/assets.
 */
export function webPayPageRoutes(services: WebPayPageDeps): FastifyPluginAsyncTypebox {
  const { page, links, settings } = services.webPay;
  const indexHtml = pageHtml({
    title: 'Payment',
    styles: ['/pay/assets/pay.css'],
    script: '/pay/assets/app.js',
    noscript: 'This payment page needs JavaScript.',
  });
  const vendor = loadEsmVendor('/pay/assets/vendor/');
  return async (app) => {
    app.addHook('onRequest', pageHeaders);
    app.get('/pay/:clientId', { schema: { hide: true, params: ClientIdParams } }, async (request, reply) => {
      // An unknown app still gets the page, which shows the API's error; it is framed by nobody.
      const record = await services.apps.resolveByClientId(request.params.clientId);
      allowFraming(reply, record ? await settings.frameAncestors(record.appId) : []);
      return reply.type('text/html; charset=utf-8').send(indexHtml);
    });

    app.get<{ Params: { clientId: string; token: string } }>(
      '/pay/:clientId/link/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const record = await services.apps.requireActive(request.params.clientId);
        const link = await links.open(record.appId, request.params.token);
        const home = `/pay/${encodeURIComponent(record.clientId)}`;
        const ancestors = await settings.frameAncestors(record.appId);
        allowFraming(reply, ancestors);
        if (!link)
          return reply
            .header('set-cookie', sessionSetCookie(services, request, null, ancestors))
            .redirect(`${home}?link=refused`, 303);
        const session = await page.openLink(record, link);
        return reply.header('set-cookie', sessionSetCookie(services, request, session, ancestors)).redirect(home, 303);
      },
    );

    // The page's files: quiet routes (debug log lines, no spans; issue 41).
    await app.register(async (assets) => {
      quietRoutes(assets);
      assets.get<{ Params: { name: string } }>(
        '/pay/assets/vendor/:name',
        { schema: { hide: true } },
        (request, reply) => {
          const body = vendor.get(request.params.name);
          if (!body) throw new AppError('NOT_FOUND', `no file ${request.params.name}`);
          return reply.type('text/javascript; charset=utf-8').send(body);
        },
      );
      await assets.register(fastifyStatic, pageFiles(WEB_PAY_ROOT, '/pay/assets/'));
    });
  };
}
