import crypto from 'node:crypto';
import type { CacheBus } from '../cache/cache-bus.js';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import type { Tables } from '../db/tables.js';
import type { MacToken } from '../auth/mac.js';
import { TokensRepository, type TokenLookupRow } from './tokens.repository.js';
import { TtlCache } from '../cache/ttl-cache.js';

/** Whom a token is issued to: the user, the app, and the login method signed in with. */
interface TokenOwner {
  userId: number;
  appId: number;
  methodId: number;
  loginType: number;
  openId: string;
  userRegion: string;
}

/** A token as authentication sees it (5.2), with what the profile (4.3) answers. */
export interface TokenSession extends MacToken, TokenOwner {
  tokenId: number;
  expiresAt: number;
  revokedAt: number | null;
  revokeReason: string | null;
  user: { username: string; registTime: number; registIp: string; source: number };
  method: { nickname: string | null; avatar: string | null; unionId: string | null };
  /** Login type codes bound to the user. */
  loginTypes: number[];
}

export interface IssuedToken {
  tokenId: number;
  kid: string;
  macKey: string;
  expiresAt: number;
}

export interface TokenPolicy {
  ttlSeconds: number;
  perUserApp: number;
  cacheSeconds: number;
  now: () => number;
  /** Tells the other instances of a revocation at once (cacheSeconds is the fallback). */
  cacheBus?: CacheBus;
}

const CACHE_MAX = 50_000;

export function kidHash(kid: string): string {
  return crypto.createHash('sha256').update(kid, 'utf8').digest('base64url');
}

const macKeyContext = (hash: string) => `mac-key:${hash}`;

/** The token column sealed under the master key (master key rotation: master-key/reseal.ts). */
export const TOKEN_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'tokens',
    id: 'token_id',
    column: 'mac_key_enc',
    contextColumns: ['kid_hash'],
    context: (row) => macKeyContext(String(row.kid_hash)),
  },
];

/**
 * MAC access tokens (5.2). The kid (access token) and the MAC key are 256
 * random bits each; the database keeps only SHA-256 of the kid and the MAC
 * key sealed under the master key. Lookups are cached per instance for
 * TOKEN_CACHE_SECONDS: a revocation evicts this instance's cache at once and
 * takes effect on other instances within that bound (docs/accounts.md).
 */
export class TokenService {
  /** Lookups by kid (the kid itself, so a hit costs no hash; the cache already holds MAC keys in the clear). */
  readonly #cache: TtlCache<string, TokenSession | null>;

  constructor(
    private readonly repo: TokensRepository,
    private readonly box: SecretBox,
    private readonly policy: TokenPolicy,
  ) {
    this.#cache = new TtlCache(
      policy.cacheSeconds * 1000,
      () => policy.now(),
      CACHE_MAX,
      policy.cacheBus && { scope: 'tokens', bus: policy.cacheBus },
    );
  }

  /**
   * Mints a token in the login's transaction, then applies the re-login
   * policy: the user keeps at most TOKENS_PER_USER_APP live tokens for this
   * app; older ones are revoked (reason `relogin`). Returns revoked ids too.
   */
  async issue(trx: Kysely<Tables>, t: TokenOwner & { ip: string }): Promise<IssuedToken & { revokedIds: number[] }> {
    const now = this.policy.now();
    const kid = crypto.randomBytes(32).toString('base64url');
    const macKey = crypto.randomBytes(32).toString('base64url');
    const hash = kidHash(kid);
    const expiresAt = now + this.policy.ttlSeconds * 1000;
    const repo = new TokensRepository(trx);
    const tokenId = await repo.insert({
      kid_hash: hash,
      user_id: t.userId,
      app_id: t.appId,
      method_id: t.methodId,
      login_type: t.loginType,
      open_id: t.openId,
      mac_key_enc: this.box.seal(macKey, macKeyContext(hash)),
      user_region: t.userRegion,
      issued_ip: t.ip,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
      revoke_reason: null,
    });
    const live = await repo.liveIds(t.userId, t.appId, now);
    const revokedIds = live.filter((id) => id !== tokenId).slice(Math.max(0, this.policy.perUserApp - 1));
    await repo.revokeIds(revokedIds, 'relogin', now);
    return { tokenId, kid, macKey, expiresAt, revokedIds };
  }

  /**
   * The token of a kid, revoked and expired ones included (the caller tells
   * them apart after the MAC is verified); null when unknown.
   */
  lookup(kid: string): Promise<TokenSession | null> {
    return this.#cache.getOrLoad(kid, this.#load);
  }
  /** The token of a kid when the cache holds a known one, at once; undefined otherwise (lookup decides). */
  lookupNow(kid: string): TokenSession | undefined {
    return this.#cache.get(kid)?.value ?? undefined;
  }
  // A field, not a closure per call: lookup is on the path of every MAC-signed request (issue 44).
  readonly #load = async (kid: string): Promise<TokenSession | null> => {
    const hash = kidHash(kid);
    const found = await this.repo.lookup(hash);
    return found ? this.toSession(hash, found.row, found.loginTypes) : null;
  };

  /** Deletes tokens that expired before `before`. */
  async purgeExpired(before: number): Promise<number> {
    return this.repo.purgeExpired(before);
  }

  /** Drops this instance's cached lookups of a user (after a revocation or a change of bound methods commits). */
  evictUser(userId: number): void {
    this.#cache.deleteWhere((session) => session?.userId === userId);
  }

  /** Drops cached lookups of these tokens. */
  evictTokens(tokenIds: number[]): void {
    if (tokenIds.length === 0) return;
    const ids = new Set(tokenIds);
    this.#cache.deleteWhere((session) => session !== null && ids.has(session.tokenId));
  }

  private toSession(hash: string, row: TokenLookupRow, loginTypes: number[]): TokenSession {
    return {
      macKey: this.box.open(row.mac_key_enc, macKeyContext(hash)),
      scope: `mac:${row.token_id}`,
      tokenId: row.token_id,
      userId: row.user_id,
      appId: row.app_id,
      methodId: row.method_id,
      loginType: row.login_type,
      openId: row.open_id,
      userRegion: row.user_region,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      revokeReason: row.revoke_reason,
      user: { username: row.username, registTime: row.regist_time, registIp: row.regist_ip, source: row.source },
      method: { nickname: row.nickname, avatar: row.avatar, unionId: row.union_id },
      loginTypes: [...new Set(loginTypes)].sort((a, b) => a - b),
    };
  }
}
