import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { SecretBox } from '../crypto/secret-box.js';
import { AppError } from '../errors/app-error.js';

/** The name of the page session cookie (Path=/pay). */
export const SESSION_COOKIE = 'pay_session';
/** How long a page session lives after it was opened or last changed. */
export const SESSION_TTL_MS = 30 * 60_000;
const CONTEXT = 'web-pay-session';
/** The most orders a session remembers having placed (the cookie must stay small). */
export const MAX_PLACED = 20;

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The role the game confirmed (4.8), as the page shows it (cut to what a cookie may hold). */
export const SessionRole = Type.Object({
  roleId: Type.String(),
  serverId: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  roleLv: Type.Union([Type.Number(), Type.Null()]),
  serverName: NullableString,
});
export type SessionRole = Static<typeof SessionRole>;

/**
 * A page session: sealed with the master key (AES-GCM) into an HttpOnly cookie, so no table holds it and nobody can
 * alter it. Bound to one app; `userId` and `role` are set by the link (web view), the role check (overseas) or the
 * login and role pick (mainland). `csrf` is the token every state-changing call must echo in X-CSRF-Token.
 */
export const PaySession = Type.Object({
  appId: Type.Integer(),
  entry: Type.Union([Type.Literal('web_view'), Type.Literal('official')]),
  userId: NullableString,
  role: Type.Union([SessionRole, Type.Null()]),
  gameExt: NullableString,
  /** The registration region (2.4 rule 8) when known: the MAC token's userRegion of a web-view link. */
  userRegion: NullableString,
  /**
   * Whether `userId` is who the browser is: the web view's launch link (the MAC token's user) or the mainland login.
   * A role id typed on the official page says whom the items go to, not who is paying: it is no login.
   */
  loggedIn: Type.Boolean(),
  /**
   * The orders this session placed (newest last, at most MAX_PLACED): all a session that is not logged in may read or
   * act on (docs/web-payment.md, "Whose orders a page session sees").
   */
  placed: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: MAX_PLACED }),
  /** Why payment is blocked (web view: the role query failed or named another user); null: not blocked. */
  blocked: Type.Union([Type.Literal('role_query_failed'), Type.Literal('role_not_owned'), Type.Null()]),
  lang: NullableString,
  csrf: Type.String(),
  exp: Type.Integer(),
});
export type PaySession = Static<typeof PaySession>;

export class PaySessions {
  constructor(
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  /** A new session of an app (a fresh CSRF token, no order placed yet). */
  create(fields: Omit<PaySession, 'csrf' | 'exp' | 'placed'>): PaySession {
    return {
      ...fields,
      placed: [],
      csrf: crypto.randomBytes(24).toString('base64url'),
      exp: this.now() + SESSION_TTL_MS,
    };
  }

  /** The session that placed order `trxNo` (the oldest one it remembers is forgotten past MAX_PLACED). */
  placedOrder(session: PaySession, trxNo: number): PaySession {
    const placed = [...session.placed.filter((t) => t !== trxNo), trxNo].slice(-MAX_PLACED);
    return this.update(session, { placed });
  }

  /** The session with `changes`, its lifetime renewed. */
  update(session: PaySession, changes: Partial<Omit<PaySession, 'csrf' | 'exp' | 'appId'>>): PaySession {
    return { ...session, ...changes, exp: this.now() + SESSION_TTL_MS };
  }

  seal(session: PaySession): string {
    return this.box.seal(JSON.stringify(session), CONTEXT);
  }

  /** The session of a cookie value, or null when it is missing, altered, sealed by an unknown key or expired. */
  open(value: string | undefined): PaySession | null {
    if (!value) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.box.open(value, CONTEXT));
    } catch {
      return null;
    }
    if (!Value.Check(PaySession, parsed) || parsed.exp <= this.now()) return null;
    return parsed;
  }

  /** The session of a request's Cookie header for app `appId`, or null (none, altered, expired, another app's). */
  fromCookies(cookieHeader: string | undefined, appId: number): PaySession | null {
    const s = this.open(cookieValue(cookieHeader, SESSION_COOKIE));
    return s && s.appId === appId ? s : null;
  }

  /**
   * The Set-Cookie value that stores `session` (null: clears it) for a page served at `hostname`; `framed`: the app
   * lets other sites frame the page (docs/web-payment.md, "Web payment page", "Framing").
   */
  setCookie(session: PaySession | null, hostname: string, framed = false): string {
    return sessionCookie(session ? this.seal(session) : '', {
      secure: framed || !isLoopbackHost(hostname),
      framed,
      ...(session ? {} : { maxAgeSeconds: 0 }),
    });
  }

  /** Refuses a state-changing call whose X-CSRF-Token is not the session's (compared in constant time). */
  checkCsrf(session: PaySession, header: string | string[] | undefined): void {
    const given = Buffer.from(typeof header === 'string' ? header : '');
    const expected = Buffer.from(session.csrf);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
      throw new AppError('CSRF_REFUSED', 'X-CSRF-Token: missing or not the token of this page session');
  }
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * Set-Cookie of the session: HttpOnly, Path=/pay, SameSite=Strict and Secure unless the page is served on loopback.
 * A page other sites may frame needs its cookie in a cross-site frame: SameSite=None, always Secure (browsers accept
 * Secure on loopback too) and Partitioned (CHIPS: kept per top-level site, so it works where third-party cookies
 * are blocked and no other site sees it).
 */
export function sessionCookie(
  value: string,
  opts: { secure: boolean; framed?: boolean; maxAgeSeconds?: number },
): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/pay',
    'HttpOnly',
    opts.framed ? 'SameSite=None' : 'SameSite=Strict',
    `Max-Age=${opts.maxAgeSeconds ?? SESSION_TTL_MS / 1000}`,
    ...(opts.secure || opts.framed ? ['Secure'] : []),
    ...(opts.framed ? ['Partitioned'] : []),
  ].join('; ');
}

/** A host name of the loopback interface (the only place the cookie goes without Secure). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
