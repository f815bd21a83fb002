import { Type, type Static } from '@sinclair/typebox';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { Text } from '../http/schemas.js';
import { isBuiltInPreOrderCode } from '../game-calls/pre-order-codes.js';
import type { WebPaySettingsChanges, WebPaySettingsRepository } from './web-pay-settings.repository.js';
import { isLoopbackHost } from './session.js';

/** A language tag (BCP 47 shape, e.g. en, zh-CN, pt-BR). */
export const LangTag = Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$', maxLength: 20 });

export const PayServer = Type.Object(
  {
    serverId: Text({ minLength: 1, maxLength: 128 }),
    name: Text({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);
export type PayServer = Static<typeof PayServer>;

/** At most this many frame ancestors and return URLs per app. */
export const MAX_FRAME_ANCESTORS = 10;
export const MAX_RETURN_URLS = 10;

export const WebPaySettingsBody = Type.Object(
  {
    servers: Type.Optional(
      Type.Array(PayServer, { maxItems: 500, description: 'The servers the official page offers.' }),
    ),
    frameAncestors: Type.Optional(
      Type.Array(Text({ minLength: 1, maxLength: 300 }), {
        maxItems: MAX_FRAME_ANCESTORS,
        description:
          "Origins that may frame the page (CSP frame-ancestors), e.g. https://game.example.com: https only, except loopback; [] is 'none'.",
      }),
    ),
    returnUrls: Type.Optional(
      Type.Array(Text({ minLength: 1, maxLength: 2048 }), {
        maxItems: MAX_RETURN_URLS,
        description:
          "Return URLs a payment step may take besides the page's own origin (matched by origin and path): https only, except loopback.",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields given replace theirs; the others are kept.',
  },
);
export type WebPaySettingsBody = Static<typeof WebPaySettingsBody>;

export const WebPaySettings = Type.Object({
  appId: Type.Integer(),
  servers: Type.Array(PayServer),
  frameAncestors: Type.Array(Type.String()),
  returnUrls: Type.Array(Type.String()),
});
export type WebPaySettings = Static<typeof WebPaySettings>;

export const PrecheckMessage = Type.Object({
  code: Type.Integer(),
  lang: Type.String(),
  text: Type.String(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type PrecheckMessage = Static<typeof PrecheckMessage>;

/** Custom pre-order check codes: any integer but the built-in 101-115 (section 7) and outside int32. */
export const CUSTOM_CODE_MAX = 2_147_483_647;

/**
 * What operators set for the official web payment page of an app: the servers the page offers, and the game's
 * translations of its custom pre-order check codes (section 7: they must not repeat a built-in code).
 */
export class WebPaySettingsService {
  constructor(
    private readonly repo: WebPaySettingsRepository,
    private readonly requireApp: (appId: number) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  async settings(appId: number): Promise<WebPaySettings> {
    const row = await this.repo.settings(appId);
    const list = (json: string | undefined) => (json ? (JSON.parse(json) as string[]) : []);
    return {
      appId,
      servers: row ? (JSON.parse(row.servers) as PayServer[]) : [],
      frameAncestors: list(row?.frame_ancestors),
      returnUrls: list(row?.return_urls),
    };
  }

  async servers(appId: number): Promise<PayServer[]> {
    return (await this.settings(appId)).servers;
  }

  /** The origins that may frame the page ([]: none may). */
  async frameAncestors(appId: number): Promise<string[]> {
    return (await this.settings(appId)).frameAncestors;
  }

  /** Replaces the fields given (servers, frame ancestors, return URLs), validated; the others are kept. */
  async put(appId: number, body: WebPaySettingsBody): Promise<WebPaySettings> {
    await this.requireApp(appId);
    const changes: WebPaySettingsChanges = {};
    if (body.servers) {
      const seen = new Set<string>();
      body.servers.forEach((s, i) => {
        if (seen.has(s.serverId)) throw invalidParameter(`servers.${i}.serverId`, `${s.serverId} is listed twice`);
        seen.add(s.serverId);
      });
      changes.servers = JSON.stringify(body.servers);
    }
    if (body.frameAncestors) changes.frame_ancestors = JSON.stringify(distinct(body.frameAncestors.map(frameAncestor)));
    if (body.returnUrls) changes.return_urls = JSON.stringify(distinct(body.returnUrls.map(configuredReturnUrl)));
    await this.repo.putSettings(appId, changes, this.now());
    return this.settings(appId);
  }

  async putServers(appId: number, servers: PayServer[]): Promise<PayServer[]> {
    return (await this.put(appId, { servers })).servers;
  }

  /**
   * The return URL a page asked for, when it may take it: on the page's own origin, or with the origin and path of
   * one of the app's return URLs. Anything else is refused (400), so a payment never sends the browser elsewhere.
   */
  async checkReturnUrl(appId: number, pageOrigin: string, returnUrl: string): Promise<string> {
    const u = webUrl('returnUrl', returnUrl);
    if (u.hash) throw invalidParameter('returnUrl', 'must not hold a fragment (#)');
    if (u.origin === pageOrigin) return u.toString();
    const allowed = (await this.settings(appId)).returnUrls.map((r) => new URL(r));
    if (allowed.some((a) => a.origin === u.origin && a.pathname === u.pathname)) return u.toString();
    throw invalidParameter('returnUrl', "must be on the page's origin or one of the app's return URLs");
  }

  async messages(appId: number): Promise<PrecheckMessage[]> {
    await this.requireApp(appId);
    return (await this.repo.messages(appId)).map((r) => ({
      code: r.code,
      lang: r.lang,
      text: r.text,
      updatedAt: new Date(r.updated_at).toISOString(),
    }));
  }

  async putMessage(appId: number, code: number, lang: string, text: string): Promise<PrecheckMessage> {
    checkCustomCode(code);
    await this.requireApp(appId);
    const updatedAt = this.now();
    await this.repo.putMessage({ app_id: appId, code, lang, text, updated_at: updatedAt });
    return { code, lang, text, updatedAt: new Date(updatedAt).toISOString() };
  }

  async deleteMessages(appId: number, code: number, lang?: string): Promise<void> {
    await this.requireApp(appId);
    const n = await this.repo.deleteMessages(appId, code, lang);
    if (n === 0)
      throw new AppError('NOT_FOUND', `no text for code ${code}${lang ? ` in ${lang}` : ''} in app ${appId}`);
  }

  /** The game's text of a custom code in `lang`: the exact tag, else one of the same language (zh for zh-CN), else null. */
  async textFor(appId: number, code: number, lang: string): Promise<string | null> {
    if (isBuiltInPreOrderCode(code)) return null;
    const rows = await this.repo.messagesOf(appId, code);
    const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();
    const exact = rows.find((r) => r.lang.toLowerCase() === lang.toLowerCase());
    return (exact ?? rows.find((r) => primary(r.lang) === primary(lang)))?.text ?? null;
  }
}

/** Section 7: a custom code must not repeat a built-in one. */
export function checkCustomCode(code: number): void {
  if (!Number.isSafeInteger(code) || code < 0 || code > CUSTOM_CODE_MAX)
    throw invalidParameter('code', `must be a whole number from 0 to ${CUSTOM_CODE_MAX}`);
  if (isBuiltInPreOrderCode(code))
    throw invalidParameter(
      'code',
      `${code} is a built-in pre-order check code (section 7: 101-107, 112-115); custom codes must not repeat one`,
    );
}

/** An absolute https URL, or http on a loopback host (local tests and demos), without user info. */
function webUrl(field: string, value: string): URL {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw invalidParameter(field, `${JSON.stringify(value)} is not an absolute URL`);
  }
  const ok = u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname));
  if (!ok) throw invalidParameter(field, 'must be https (http only on a loopback host)');
  if (u.username || u.password) throw invalidParameter(field, 'must not hold a user name or password');
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(u.hostname))
    throw invalidParameter(field, 'must name one host (no wildcard)');
  return u;
}

/** A frame ancestor: exactly an origin (scheme, host, port; no path, no wildcard). */
function frameAncestor(value: string, i: number): string {
  const field = `frameAncestors.${i}`;
  const u = webUrl(field, value);
  if (u.origin !== value.toLowerCase() && `${u.origin}/` !== value.toLowerCase())
    throw invalidParameter(field, `must be an origin such as https://game.example.com, not ${JSON.stringify(value)}`);
  return u.origin;
}

function configuredReturnUrl(value: string, i: number): string {
  const u = webUrl(`returnUrls.${i}`, value);
  if (u.hash) throw invalidParameter(`returnUrls.${i}`, 'must not hold a fragment (#)');
  return u.toString();
}

const distinct = (values: string[]) => [...new Set(values)];
