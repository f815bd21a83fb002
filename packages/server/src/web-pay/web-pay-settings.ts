import { Type, type Static } from '@sinclair/typebox';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { Text } from '../http/schemas.js';
import { isBuiltInPreOrderCode } from '../game-calls/pre-order-codes.js';
import type { WebPaySettingsRepository } from './web-pay-settings.repository.js';

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

export const WebPaySettingsBody = Type.Object(
  { servers: Type.Array(PayServer, { maxItems: 500, description: 'The servers the official page offers.' }) },
  { additionalProperties: false },
);

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

  async servers(appId: number): Promise<PayServer[]> {
    const json = await this.repo.servers(appId);
    return json ? (JSON.parse(json) as PayServer[]) : [];
  }

  async putServers(appId: number, servers: PayServer[]): Promise<PayServer[]> {
    await this.requireApp(appId);
    const seen = new Set<string>();
    servers.forEach((s, i) => {
      if (seen.has(s.serverId)) throw invalidParameter(`servers.${i}.serverId`, `${s.serverId} is listed twice`);
      seen.add(s.serverId);
    });
    await this.repo.putServers(appId, JSON.stringify(servers), this.now());
    return servers;
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
