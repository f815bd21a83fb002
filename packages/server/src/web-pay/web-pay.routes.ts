import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import { countryOrDefault } from '../accounts/country.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import type { AppRecord, AppService } from '../apps/apps.service.js';
import { exponentOf } from '../orders/money.js';
import type { Order } from '../orders/orders.view.js';
import type { PaymentStep } from '../orders/payments/channels/channel.js';
import type { AccountService } from '../accounts/accounts.service.js';
import type { Config } from '../config/config.js';
import type { PaySession } from './session.js';
import { pageHeaders, sessionSetCookie, type WebPayServices } from './web-pay.page.routes.js';
import {
  ClientIdParams,
  Context,
  LoginBody,
  PageOrder,
  PageStep,
  PlaceBody,
  Quote,
  QuoteBody,
  Role,
  RoleBody,
  RolesQuery,
  SandboxStepBody,
  TrxNoParams,
} from './web-pay.schemas.js';

const tags = ['web payment page'];
const ok = <T>(data: T) => ({ code: 200 as const, msg: 'success', detail: '', data });

/** The page language: the session's (launch link), else Accept-Language: Simplified Chinese for zh, else English. */
export function pageLang(session: PaySession | null, acceptLanguage: string | undefined): string {
  if (session?.lang) return session.lang.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
  const first = (acceptLanguage ?? '').split(',')[0]!.trim().toLowerCase();
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

/** The step the page takes after placing the order (the hosted step's operator call is not the page's business). */
export function pageStep(step: PaymentStep | null): Static<typeof PageStep> {
  if (step?.kind === 'redirect') return { kind: 'redirect', channel: step.channel, url: step.url };
  if (step?.kind === 'hosted') return { kind: 'hosted', channel: step.channel, outcomes: step.outcomes };
  if (step?.kind === 'qr') return { kind: 'qr', channel: step.channel, code: step.code, image: step.image };
  // A store step cannot be taken in a browser; the result view follows the order.
  return { kind: 'none', channel: step?.channel ?? '' };
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

/** The web payment page's JSON API under /pay/api/{clientId} (page session cookie; X-CSRF-Token on every POST). */
export function webPayApiRoutes(services: {
  webPay: WebPayServices;
  apps: Pick<AppService, 'requireActive'>;
  accounts: Pick<AccountService, 'edgeCountry' | 'loginWithProvider' | 'logout' | 'sandbox' | 'tokens'>;
  config: Pick<Config, 'WEB_PAY_ROLE_CHECKS_PER_MINUTE'>;
}): FastifyPluginAsyncTypebox {
  const { page, sessions } = services.webPay;
  const roleLimit = {
    rateLimit: {
      max: services.config.WEB_PAY_ROLE_CHECKS_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => `pay-role-ip:${request.ip}`,
    },
  };

  const sessionOf = (request: FastifyRequest, app: AppRecord) =>
    sessions.fromCookies(request.headers.cookie, app.appId);
  const setSession = async (request: FastifyRequest, reply: FastifyReply, s: PaySession): Promise<void> => {
    // Not `return reply...`: a reply is thenable, and awaiting it would wait for the answer it is building.
    const ancestors = await services.webPay.settings.frameAncestors(s.appId);
    reply.header('set-cookie', sessionSetCookie(services, request, s, ancestors));
  };
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
    app.addHook('onRequest', pageHeaders);

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
          await setSession(request, reply, session);
        }
        return ok({
          app: { name: record.name, region: record.region },
          entry: session.entry,
          lang: pageLang(session, request.headers['accept-language']),
          csrf: session.csrf,
          loggedIn: session.loggedIn,
          role: session.role,
          blocked: session.blocked,
          servers: await services.webPay.settings.servers(record.appId),
          products: await page.products(record.appId),
          region: await page.region(record, session, edgeCountry(request)),
          loginProviders: services.accounts.sandbox ? ['sandbox'] : [],
          sandbox: page.sandboxEnabled,
          methods: (await page.methods(record)).map((m) => ({ provider: m.provider, method: m.method })),
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
        const next = await page.checkRole(record, session, request.body.serverId, request.body.roleId).catch((err) => {
          // The game failed (not the player): operators find the call in the game-call log; the log says which.
          if (err instanceof AppError && (err.reason === 'ROLE_QUERY_FAILED' || err.reason === 'GAME_UNREACHABLE'))
            request.log.warn(
              { appId: record.appId, serverId: request.body.serverId, reason: err.reason, detail: err.detail },
              'web payment page: the game could not confirm a role (4.8)',
            );
          throw err;
        });
        await setSession(request, reply, next);
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
        await setSession(request, reply, page.loggedIn(session, login.userId));
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
            200: platformSuccess(Type.Object({ order: PageOrder, payment: PageStep })),
            ...platformErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const { app: record, session } = await changing(request);
        const returnUrl = await services.webPay.settings.checkReturnUrl(
          record.appId,
          `${request.protocol}://${request.host}`,
          request.body.returnUrl ?? `${request.protocol}://${request.host}/pay/${encodeURIComponent(record.clientId)}`,
        );
        const placed = await page.place(record, session, request.body.products, {
          ...(request.body.provider !== undefined ? { provider: request.body.provider } : {}),
          web: {
            device: request.body.device ?? 'desktop',
            lang: request.body.lang ?? pageLang(session, request.headers['accept-language']),
            clientIp: request.ip ?? null,
            baseUrl: requestBaseUrl(request),
          },
          region: request.body.region ?? null,
          ipCountry: edgeCountry(request),
          lang: request.body.lang ?? pageLang(session, request.headers['accept-language']),
          returnUrl,
        });
        // The session remembers the order it placed: what it may read and act on (WebPayService.order).
        await setSession(request, reply, sessions.placedOrder(session, placed.order.trxNo));
        return ok({ order: pageOrder(placed.order), payment: pageStep(placed.paymentStep) });
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
        return ok(pageOrder(await page.order(record, session, request.params.trxNo)));
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
        return ok(pageOrder(await page.sandboxStep(record, session, request.params.trxNo, request.body.outcome)));
      },
    );
  };
}
