import type { AppRecord } from '../apps/apps.service.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { GameCallsClient, RoleListEntry } from '../game-calls/game-calls.js';
import { isBuiltInPreOrderCode } from '../game-calls/pre-order-codes.js';
import { checkWithGame } from '../orders/placement/game-checks.js';
import { minorToNumber, minorToText } from '../orders/money.js';
import type { OrderService, PlacedOrder, PlaceOrderInput } from '../orders/orders.service.js';
import type { Order } from '../orders/orders.view.js';
import type { WebPayer } from '../orders/payments/channels/channel.js';
import type { ProductService } from '../orders/catalogue/products.js';
import { OrderStatus } from '../orders/enums.js';
import { openedBySandbox } from '../orders/payments/channels/sandbox.js';
import type { PayLinkRow } from './pay-links.repository.js';
import type { PaySession, PaySessions, SessionRole } from './session.js';
import type { WebPaySettingsService } from './web-pay-settings.js';

/** 2.7: web orders are platform 3 (Web), paymentType 1 (mobile WAP); the channel by the app's region (docs/web-payment.md). */
export const WEB_PLATFORM = 3;
export const WEB_PAYMENT_TYPE = 1;
export const webChannelOf = (app: AppRecord) => (app.region === 'mainland' ? 4 : 5);

/** The languages of the page (web-pay/i18n.js). */
export const PAGE_LANGS = ['en', 'zh-CN'] as const;

/** The longest role texts a session keeps (the cookie must stay small); longer ones are cut for display only. */
const MAX_ROLE_TEXT = 200;

export interface Line {
  productCode: string;
  quantity: number;
}

/** A payment method the page offers (a provider the app enabled for the payer's region, or the sandbox). */
export interface PageMethod {
  provider: string;
  method: string;
  channel: number;
  paymentType: (device: 'desktop' | 'phone') => number;
}

export interface WebPayDeps {
  gameCalls: Pick<GameCallsClient, 'roleQuery' | 'roleList' | 'preOrderCheck'>;
  orders: Pick<OrderService, 'place' | 'get' | 'applyChannelEvent' | 'cancel'>;
  products: Pick<ProductService, 'list'>;
  settings: WebPaySettingsService;
  sessions: PaySessions;
  webRegionLock: (appId: number) => Promise<boolean>;
  sandboxEnabled: boolean;
  /** The methods the page offers for this app (its region's enabled providers; the sandbox when it stands in). */
  methods: (app: AppRecord) => Promise<PageMethod[]>;
  /** The result view reads an order awaiting payment: its provider is asked when the notification is late. */
  lateQuery: (trxNo: number) => Promise<boolean>;
}

/**
 * The logic of the official web payment page (issue 18; spec 4.8-4.10, section 7, 2.4 rules 3, 6, 8): whose the
 * page session is, which role it pays for, and its orders. Sessions are handed in and answered; the routes keep them
 * in the cookie.
 */
export class WebPayService {
  constructor(private readonly deps: WebPayDeps) {}

  get sandboxEnabled(): boolean {
    return this.deps.sandboxEnabled;
  }

  /** A fresh session of the official page (no user, no role yet). */
  officialSession(app: AppRecord, lang: string | null): PaySession {
    return this.deps.sessions.create({
      appId: app.appId,
      entry: 'official',
      userId: null,
      loggedIn: false,
      role: null,
      gameExt: null,
      userRegion: null,
      blocked: null,
      lang,
    });
  }

  /**
   * The session of an opened launch link (web view): the role query (4.8) is called once; a failure, an answer
   * without the platform user id or another user's id block payment (the session says why).
   */
  async openLink(app: AppRecord, link: PayLinkRow): Promise<PaySession> {
    const answer = await this.deps.gameCalls.roleQuery(app, {
      roleId: link.game_role_id,
      serverId: link.game_server_id,
    });
    const blocked = !answer.ok ? 'role_query_failed' : answer.role.userId !== link.user_id ? 'role_not_owned' : null;
    return this.deps.sessions.create({
      appId: app.appId,
      entry: 'web_view',
      userId: link.user_id,
      loggedIn: true,
      role: answer.ok
        ? roleOf(answer.role, link.game_server_id)
        : roleOf({ roleId: link.game_role_id, name: '', avatar: '' }, link.game_server_id),
      gameExt: link.game_ext,
      userRegion: link.user_region,
      blocked,
      lang: link.lang,
    });
  }

  /**
   * The official page's role check (4.8): overseas, the typed role id and its user id say whose order it is;
   * mainland (logged in), the role must be the logged-in user's.
   */
  async checkRole(app: AppRecord, session: PaySession, serverId: string, roleId: string): Promise<PaySession> {
    if (session.entry !== 'official')
      throw invalidParameter('roleId', 'the role of an in-game page is the one the game opened it for');
    if (app.region === 'mainland' && session.userId === null)
      throw new AppError(
        'PAY_SESSION_REQUIRED',
        'log in first: a mainland page offers the roles of the logged-in user',
      );
    const answer = await this.deps.gameCalls.roleQuery(app, { roleId, serverId });
    if (!answer.ok) {
      if (answer.reason === 'unreachable') throw new AppError('GAME_UNREACHABLE', `role query (4.8): ${answer.detail}`);
      // Only a 4xx answer is the game saying "no such role"; a 5xx, an answer that is not a role with the platform
      // user id (2.6) or no role query URL is the game failing, not the player typing a wrong id.
      if (answer.reason === 'rejected' && answer.httpStatus !== null && answer.httpStatus < 500)
        throw new AppError('ROLE_NOT_FOUND', `role query (4.8): ${answer.detail}`);
      throw new AppError('ROLE_QUERY_FAILED', `role query (4.8): ${answer.detail}`, {
        data: { reason: answer.reason, httpStatus: answer.httpStatus },
      });
    }
    if (session.userId !== null && app.region === 'mainland' && answer.role.userId !== session.userId)
      throw new AppError('ROLE_NOT_OWNED', `role ${roleId} on server ${serverId} belongs to another user (4.8)`);
    return this.deps.sessions.update(session, { userId: answer.role.userId, role: roleOf(answer.role, serverId) });
  }

  /** Mainland: the logged-in user's roles on a server (4.9). */
  async roles(app: AppRecord, session: PaySession, serverId: string): Promise<RoleListEntry[]> {
    if (session.userId === null) throw new AppError('PAY_SESSION_REQUIRED', 'log in first');
    const answer = await this.deps.gameCalls.roleList(app, { userId: session.userId, serverId });
    if (answer.ok) return answer.roles.map((r) => ({ ...r, name: cut(r.name), avatar: avatarOf(r.avatar) }));
    if (answer.reason === 'no_role') throw new AppError('NO_ROLE_ON_SERVER', answer.detail);
    if (answer.reason === 'rejected' && 'msg' in answer)
      // 4.9: `msg` is for the player; the game's `detail` never leaves the service.
      throw new AppError('ROLE_LIST_REFUSED', answer.detail, answer.msg ? { msg: answer.msg } : {});
    if (answer.reason === 'unreachable') throw new AppError('GAME_UNREACHABLE', `role list (4.9): ${answer.detail}`);
    throw new AppError('ROLE_QUERY_FAILED', `role list (4.9): ${answer.detail}`);
  }

  /** A user id set by the mainland login. */
  loggedIn(session: PaySession, userId: string): PaySession {
    return this.deps.sessions.update(session, { userId, loggedIn: true, role: null });
  }

  /** The payment methods the page offers (docs/web-payment.md, "Payment methods"). */
  methods(app: AppRecord): Promise<PageMethod[]> {
    return this.deps.methods(app);
  }

  /** The app's active products, as the page lists them. */
  async products(appId: number) {
    return (await this.deps.products.list(appId))
      .filter((p) => p.status === 'active')
      .map((p) => ({
        productCode: p.productCode,
        name: p.name,
        price: p.price,
        priceText: minorToText(p.priceMinor, p.currency),
        currency: p.currency,
      }));
  }

  /** Totals of `lines` computed here, never by the page. */
  async quote(appId: number, lines: Line[]) {
    const byCode = new Map(
      (await this.deps.products.list(appId)).filter((p) => p.status === 'active').map((p) => [p.productCode, p]),
    );
    let currency: string | null = null;
    let total = 0;
    const out = lines.map((l, i) => {
      const p = byCode.get(l.productCode);
      if (!p) throw new AppError('UNKNOWN_PRODUCT', `products.${i}.productCode: ${l.productCode} is not on sale`);
      if (currency !== null && p.currency !== currency)
        throw invalidParameter(`products.${i}.productCode`, `is priced in ${p.currency}, the order in ${currency}`);
      currency = p.currency;
      const amount = p.priceMinor * l.quantity;
      total += amount;
      return {
        ...l,
        name: p.name,
        unitPrice: p.price,
        amount: minorToNumber(amount, p.currency),
        amountText: minorToText(amount, p.currency),
      };
    });
    if (currency === null) throw invalidParameter('products', 'must hold at least one product');
    return {
      lines: out,
      currency,
      totalAmount: minorToNumber(total, currency),
      totalText: minorToText(total, currency),
    };
  }

  /** Region of 2.4 rule 8 as the page offers it: locked to the registration region, or a picker with a default. */
  async region(app: AppRecord, session: PaySession, edgeCountry: string) {
    const locked = await this.deps.webRegionLock(app.appId);
    return { locked, value: locked ? session.userRegion || 'DF' : edgeCountry };
  }

  /**
   * Places the web order (outTrxNo generated, 2.4 rule 3; attach from role and server): the role query and the
   * pre-order check of each line with its quantity first (4.8, 4.10), then the order opened at the channel. A
   * block carries the text to show: the game's translation of a custom code in `lang`, else its msg (section 7).
   */
  async place(app: AppRecord, session: PaySession, lines: Line[], ctx: PlaceContext): Promise<PlacedOrder> {
    const { userId, role } = this.payer(session);
    // The method the player picked decides the channel (each provider has its own); none: the region's web channel.
    let channel = webChannelOf(app);
    let paymentType = WEB_PAYMENT_TYPE;
    if (ctx.provider !== undefined) {
      const method = (await this.deps.methods(app)).find((m) => m.provider === ctx.provider);
      if (!method)
        throw new AppError(
          'PAYMENT_METHOD_UNAVAILABLE',
          `provider: ${ctx.provider} is not offered by this app for ${app.region} players`,
        );
      channel = method.channel;
      paymentType = method.paymentType(ctx.web.device);
    }
    const input: PlaceOrderInput = {
      appId: app.appId,
      userId,
      origin: 'web_page',
      orderId: null,
      products: lines,
      gameServerId: role.serverId,
      gameRoleId: role.roleId,
      gameExt: session.gameExt ?? '',
      platform: WEB_PLATFORM,
      channel,
      paymentType,
      mergedReceipts: false,
      sdkVersion: null,
      ipCountry: ctx.ipCountry,
      chosenRegion: ctx.region,
      registrationRegion: session.userRegion || null,
      returnUrl: ctx.returnUrl,
      web: ctx.web,
    };
    try {
      const placed = await this.deps.orders.place(input, () =>
        checkWithGame(this.deps.gameCalls, app, {
          userId,
          roleId: role.roleId,
          serverId: role.serverId,
          products: lines,
        }),
      );
      return placed;
    } catch (err) {
      throw await this.explainBlock(app, err, ctx.lang);
    }
  }

  /**
   * One of the session's own orders: one it placed, or, when the session is logged in (web view, mainland login), one
   * of its user's orders of this page. Anything else is 404, whether it exists or not: the page learns nothing of it.
   * A role id typed on the official page is no login (role ids are seen by other players), so it reads no order.
   */
  async order(app: AppRecord, session: PaySession, trxNo: number): Promise<Order> {
    const mine = session.placed.includes(trxNo);
    if (!mine && !(session.loggedIn && session.userId !== null))
      throw new AppError('NOT_FOUND', `order ${trxNo} is not an order of this page session`);
    const order = await this.deps.orders.get(trxNo).catch((err: unknown) => {
      if (err instanceof AppError && err.reason === 'NOT_FOUND') return null;
      throw err;
    });
    if (
      !order ||
      order.appId !== app.appId ||
      order.origin !== 'web_page' ||
      (!mine && order.userId !== session.userId)
    )
      throw new AppError('NOT_FOUND', `order ${trxNo} is not an order of this page session`);
    // The browser's return is never trusted: a late notification is asked of the provider instead.
    if (order.status === OrderStatus.AWAITING_PAYMENT && (await this.deps.lateQuery(trxNo)))
      return this.deps.orders.get(trxNo);
    return order;
  }

  /** The sandbox's hosted step (SANDBOX_PAYMENTS only): pay, fail or cancel the session's own order (a provider's part). */
  async sandboxStep(app: AppRecord, session: PaySession, trxNo: number, outcome: 'pay' | 'fail' | 'cancel') {
    if (!this.deps.sandboxEnabled)
      throw new AppError('SANDBOX_DISABLED', 'set SANDBOX_PAYMENTS=true (never in production mode)');
    const order = await this.order(app, session, trxNo);
    // A real provider's order is paid by its provider only, never by the sandbox's buttons.
    if (!openedBySandbox(order.bankTrxNo))
      throw new AppError('NOT_FOUND', `order ${trxNo} was not opened by the sandbox channel`);
    if (order.status !== OrderStatus.AWAITING_PAYMENT) return order;
    if (outcome === 'pay')
      return this.deps.orders.applyChannelEvent({ kind: 'paid', trxNo, bankTrxNo: null, client: null });
    if (outcome === 'fail')
      return this.deps.orders.applyChannelEvent({ kind: 'failed', trxNo, reason: 'payment failed (sandbox page)' });
    return this.deps.orders.cancel(trxNo, 'cancelled by the player (sandbox page)');
  }

  /** The user and role a session pays for; refuses a session without them or a blocked one. */
  payer(session: PaySession): { userId: string; role: SessionRole } {
    if (session.blocked)
      throw new AppError('PAYMENT_BLOCKED', `payment is blocked: ${session.blocked}`, {
        data: { reason: session.blocked },
      });
    if (session.userId === null || session.role === null)
      throw new AppError('PAY_SESSION_REQUIRED', 'choose a role first');
    return { userId: session.userId, role: session.role };
  }

  private async explainBlock(app: AppRecord, err: unknown, lang: string): Promise<unknown> {
    if (!(err instanceof AppError) || err.reason !== 'PRE_ORDER_BLOCKED') return err;
    const data = err.data as { code: number | null; msg: string | null; productCode: string };
    const custom = data.code !== null && !isBuiltInPreOrderCode(data.code);
    const textIn = (l: string) => (custom ? this.deps.settings.textFor(app.appId, data.code!, l) : null);
    // The game's text in each language of the page, so the block follows the page's language switch.
    const texts: Record<string, string> = {};
    for (const l of PAGE_LANGS) {
      const t = await textIn(l);
      if (t !== null) texts[l] = t;
    }
    // The page's data: the code, the game's msg and our translation; never the game's developer `detail`.
    return new AppError('PRE_ORDER_BLOCKED', `the pre-order check (4.10) blocked ${data.productCode}`, {
      ...(err.msgOverride !== undefined ? { msg: err.msgOverride } : {}),
      data: {
        code: data.code,
        msg: data.code === null ? null : data.msg,
        text: await textIn(lang),
        texts,
        productCode: data.productCode,
      },
    });
  }
}

export interface PlaceContext {
  /** The provider the player picked (PageMethod.provider); undefined: the region's web channel. */
  provider?: string;
  /** The payer, for the provider: device, language, IP, the base URL the page reached us at. */
  web: WebPayer;
  region: string | null;
  ipCountry: string;
  lang: string;
  /** Checked by WebPaySettingsService.checkReturnUrl. */
  returnUrl: string;
}

/** Avatars only as http(s) URLs (the page puts them in img src); anything else is dropped. */
function avatarOf(url: string): string {
  return /^https?:\/\/[^\s]+$/i.test(url) && url.length <= 1024 ? url : '';
}

function cut(text: string, max = MAX_ROLE_TEXT): string {
  return text.length > max ? text.slice(0, max) : text;
}

function roleOf(
  r: { roleId: string; name: string; avatar: string; roleLv?: number | null; serverName?: string | null },
  serverId: string,
): SessionRole {
  return {
    roleId: r.roleId,
    serverId,
    name: cut(r.name),
    avatar: avatarOf(r.avatar),
    roleLv: r.roleLv ?? null,
    serverName: r.serverName ? cut(r.serverName) : null,
  };
}
