import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { loadEsmVendor } from '../http/esm-vendor.js';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import { countryOrDefault } from '../accounts/country.js';
import type { AppRecord } from '../apps/apps.service.js';
import { exponentOf } from '../orders/money.js';
import type { Order } from '../orders/orders.view.js';
import type { Services } from '../services.js';
import { cookieValue, isLoopbackHost, SESSION_COOKIE, sessionCookie, type PaySession } from './session.js';
import {
  ClientIdParams,
  Context,
  LoginBody,
  PageOrder,
  PlaceBody,
  Quote,
  QuoteBody,
  Role,
  RoleBody,
  RolesQuery,
  SandboxStepBody,
  TrxNoParams,
} from './web-pay.schemas.js';

/** The page's static files (packages/server/web-pay, beside src and dist). */
export const WEB_PAY_ROOT = fileURLToPath(new URL('../../web-pay/', import.meta.url));

/**
 * The page's CSP: its own scripts and styles only (no inline script), its API only, avatars from http(s) URLs,
 * never framed (the session cookie is SameSite=Strict: game web views load the page top-level; docs/web-pay.md).
 */
export const WEB_PAY_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https: http:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': WEB_PAY_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const tags = ['web payment page'];
const ok = <T>(data: T) => ({ code: 200 as const, msg: 'success', detail: '', data });

/** The page language: the session's (launch link), else Accept-Language: Simplified Chinese for zh, else English. */
export function pageLang(session: PaySession | null, acceptLanguage: string | undefined): string {
  if (session?.lang) return session.lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
  const first = (acceptLanguage ?? '').split(',')[0]!.trim().toLowerCase();
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

export function pageOrder(o: Order) {
  return {
    trxNo: o.trxNo,
    status: o.status,
    statusName: o.statusName,
    products: o.products.map((p) => ({ productCode: p.productCode, quantity: p.quantity })),
    currency: o.currency,
    totalAmount: o.totalAmount,
    totalText: o.totalAmount.toFixed(exponentOf(o.currency)),
    region: o.region,
  };
}

/**
 * The official web payment page (issue 18): GET /pay/{clientId} and its launch links, its static files under
 * /pay/assets, and its JSON API under /pay/api/{clientId} (page session cookie; X-CSRF-Token on every POST).
 */
export function webPayRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { page, links, sessions } = services.webPay;
  const indexHtml = fs.readFileSync(`${WEB_PAY_ROOT}index.html`);
  const vendor = loadEsmVendor('/pay/assets/vendor/');
  const roleLimit = {
    rateLimit: {
      max: services.config.WEB_PAY_ROLE_CHECKS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `pay-role-ip:${request.ip}`,
    },
  };

  const sessionOf = (request: FastifyRequest, app: AppRecord): PaySession | null => {
    const s = sessions.open(cookieValue(request.headers.cookie, SESSION_COOKIE));
    return s && s.appId === app.appId ? s : null;
  };
  const setSession = (request: FastifyRequest, reply: FastifyReply, s: PaySession | null) =>
    reply.header(
      'set-cookie',
      sessionCookie(s ? sessions.seal(s) : '', !isLoopbackHost(request.hostname), s ? undefined : 0),
    );
  const appOf = (request: FastifyRequest) =>
    services.apps.requireActive((request.params as { clientId: string }).clientId);
  /** A POST of the page: its app, its session and the CSRF token checked. */
  const changing = async (request: FastifyRequest) => {
    const app = await appOf(request);
    const session = sessionOf(request, app);
    if (!session) throw new AppError('PAY_SESSION_REQUIRED', 'no page session for this app; open the page again');
    sessions.checkCsrf(session, request.headers['x-csrf-token']);
    return { app, session };
  };
  const reading = async (request: FastifyRequest) => {
    const app = await appOf(request);
    const session = sessionOf(request, app);
    if (!session) throw new AppError('PAY_SESSION_REQUIRED', 'no page session for this app; open the page again');
    return { app, session };
  };
  const edgeCountry = (request: FastifyRequest) =>
    countryOrDefault(services.accounts.edgeCountry(request.socket.remoteAddress, request.headers));

  return async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header('cache-control', request.url.startsWith('/pay/assets/') ? 'no-cache' : 'no-store');
    });

    app.get('/pay/:clientId', { schema: { hide: true, params: ClientIdParams } }, (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(indexHtml),
    );

    app.get<{ Params: { clientId: string; token: string } }>(
      '/pay/:clientId/link/:token',
      { schema: { hide: true } },
      async (request, reply) => {
        const record = await appOf(request);
        const link = await links.open(record.appId, request.params.token);
        const home = `/pay/${encodeURIComponent(record.clientId)}`;
        if (!link) return setSession(request, reply, null).redirect(`${home}?link=refused`, 303);
        return setSession(request, reply, await page.openLink(record, link)).redirect(home, 303);
      },
    );

    app.get<{ Params: { name: string } }>('/pay/assets/vendor/:name', { schema: { hide: true } }, (request, reply) => {
      const body = vendor.get(request.params.name);
      if (!body) throw new AppError('NOT_FOUND', `no file ${request.params.name}`);
      return reply.type('text/javascript; charset=utf-8').send(body);
    });

    // One route per file found at start (wildcard: false): traversal and dot files fall to the 404 handler.
    await app.register(fastifyStatic, {
      root: WEB_PAY_ROOT,
      prefix: '/pay/assets/',
      decorateReply: false,
      wildcard: false,
      index: false,
      redirect: false,
      list: false,
      dotfiles: 'ignore',
      cacheControl: false,
    });

    app.get(
      '/pay/api/:clientId/context',
      {
        schema: {
          tags,
          summary: 'What the page shows: app, session (role, block), servers, products, region; starts a session',
          params: ClientIdParams,
          response: { 200: platformSuccess(Context), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const record = await appOf(request);
        let session = sessionOf(request, record);
        if (!session) {
          session = page.officialSession(record, null);
          setSession(request, reply, session);
        }
        return ok({
          app: { name: record.name, region: record.region },
          entry: session.entry,
          lang: pageLang(session, request.headers['accept-language']),
          csrf: session.csrf,
          loggedIn: session.userId !== null,
          role: session.role,
          blocked: session.blocked,
          servers: await services.webPay.settings.servers(record.appId),
          products: await page.products(record.appId),
          region: await page.region(record, session, edgeCountry(request)),
          loginProviders: services.accounts.sandbox ? ['sandbox'] : [],
          sandbox: page.sandboxEnabled,
        });
      },
    );

    app.post(
      '/pay/api/:clientId/role',
      {
        config: roleLimit,
        schema: {
          tags,
          summary: 'Official page: check a role id on a server with the role query (4.8)',
          params: ClientIdParams,
          body: RoleBody,
          response: { 200: platformSuccess(Type.Object({ role: Role })), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const { app: record, session } = await changing(request);
        const next = await page.checkRole(record, session, request.body.serverId, request.body.roleId);
        setSession(request, reply, next);
        return ok({ role: next.role! });
      },
    );

    app.post(
      '/pay/api/:clientId/login',
      {
        schema: {
          tags,
          summary: 'Mainland official page: log in with a login provider (the sandbox provider in demos)',
          params: ClientIdParams,
          body: LoginBody,
          response: { 200: platformSuccess(Type.Object({ loggedIn: Type.Boolean() })), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const { app: record, session } = await changing(request);
        const login = await services.accounts.loginWithProvider(
          record.clientId,
          request.body.provider,
          request.body.credential,
          { ip: request.ip, country: services.accounts.edgeCountry(request.socket.remoteAddress, request.headers) },
        );
        // The page keeps only the user id: the token the login minted is revoked at once, never sent to the browser.
        const token = await services.accounts.tokens.lookup(login.kid);
        if (token) await services.accounts.logout(token);
        setSession(request, reply, page.loggedIn(session, login.userId));
        return ok({ loggedIn: true });
      },
    );

    app.get(
      '/pay/api/:clientId/roles',
      {
        config: roleLimit,
        schema: {
          tags,
          summary: "Mainland official page: the logged-in user's roles on a server (4.9)",
          params: ClientIdParams,
          querystring: RolesQuery,
          response: { 200: platformSuccess(Type.Object({ roles: Type.Array(Role) })), ...platformErrorResponses },
        },
      },
      async (request) => {
        const { app: record, session } = await reading(request);
        const roles = await page.roles(record, session, request.query.serverId);
        return ok({ roles: roles.map((r) => ({ ...r, roleLv: r.roleLv ?? null, serverName: r.serverName ?? null })) });
      },
    );

    app.post(
      '/pay/api/:clientId/quote',
      {
        schema: {
          tags,
          summary: 'Totals of the chosen products, computed by the service',
          params: ClientIdParams,
          body: QuoteBody,
          response: { 200: platformSuccess(Quote), ...platformErrorResponses },
        },
      },
      async (request) => {
        const { app: record } = await changing(request);
        return ok(await page.quote(record.appId, request.body.products));
      },
    );

    app.post(
      '/pay/api/:clientId/orders',
      {
        schema: {
          tags,
          summary: 'Place the web order: role query (4.8), pre-order check per line (4.10), then the payment step',
          params: ClientIdParams,
          body: PlaceBody,
          response: {
            200: platformSuccess(Type.Object({ order: PageOrder, payment: Type.Object({ kind: Type.String() }) })),
            ...platformErrorResponses,
          },
        },
      },
      async (request) => {
        const { app: record, session } = await changing(request);
        const order = await page.place(record, session, request.body.products, {
          region: request.body.region ?? null,
          ipCountry: edgeCountry(request),
          lang: request.body.lang ?? pageLang(session, request.headers['accept-language']),
        });
        return ok({ order: pageOrder(order), payment: { kind: page.sandboxEnabled ? 'sandbox' : 'none' } });
      },
    );

    app.get(
      '/pay/api/:clientId/orders/:trxNo',
      {
        schema: {
          tags,
          summary: "One of the session's orders (the result page follows it)",
          params: TrxNoParams,
          response: { 200: platformSuccess(PageOrder), ...platformErrorResponses },
        },
      },
      async (request) => {
        const { app: record, session } = await reading(request);
        return ok(pageOrder(await page.order(record, session, Number(request.params.trxNo))));
      },
    );

    app.post(
      '/pay/api/:clientId/orders/:trxNo/sandbox',
      {
        schema: {
          tags,
          summary: "The sandbox channel's hosted step: pay, fail or cancel (SANDBOX_PAYMENTS only)",
          params: TrxNoParams,
          body: SandboxStepBody,
          response: { 200: platformSuccess(PageOrder), ...platformErrorResponses },
        },
      },
      async (request) => {
        const { app: record, session } = await changing(request);
        return ok(
          pageOrder(await page.sandboxStep(record, session, Number(request.params.trxNo), request.body.outcome)),
        );
      },
    );
  };
}
