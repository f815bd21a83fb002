import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { updateRows } from '../db/by-key.js';
import type { TokensTable } from './accounts.tables.js';

export type TokenRow = Selectable<TokensTable>;

/** A token with what the profile (4.3) needs of its user and login method, in one indexed lookup. */
export type TokenLookupRow = Pick<
  TokenRow,
  | 'token_id'
  | 'user_id'
  | 'app_id'
  | 'method_id'
  | 'login_type'
  | 'open_id'
  | 'mac_key_enc'
  | 'user_region'
  | 'expires_at'
  | 'revoked_at'
  | 'revoke_reason'
> & {
  username: string;
  regist_time: number;
  regist_ip: string;
  source: number;
  nickname: string | null;
  avatar: string | null;
  union_id: string | null;
};

/** SQL of access tokens. */
export class TokensRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<TokensTable>): Promise<number> {
    const { token_id } = await this.db.insertInto('tokens').values(row).returning('token_id').executeTakeFirstOrThrow();
    return token_id;
  }

  /** The token of a kid hash (unique index) joined with its user and login method, and the user's bound login types. */
  async lookup(kidHash: string): Promise<{ row: TokenLookupRow; loginTypes: number[] } | undefined> {
    const [row, types] = await Promise.all([
      this.db
        .selectFrom('tokens as t')
        .innerJoin('users as u', 'u.user_id', 't.user_id')
        .leftJoin('login_methods as m', 'm.method_id', 't.method_id')
        .select([
          't.token_id',
          't.user_id',
          't.app_id',
          't.method_id',
          't.login_type',
          't.open_id',
          't.mac_key_enc',
          't.user_region',
          't.expires_at',
          't.revoked_at',
          't.revoke_reason',
          'u.username',
          'u.regist_time',
          'u.regist_ip',
          'u.source',
          'm.nickname',
          'm.avatar',
          'm.union_id',
        ])
        .where('t.kid_hash', '=', kidHash)
        .executeTakeFirst(),
      this.db
        .selectFrom('login_methods')
        .select('login_type')
        .where('user_id', '=', (eb) => eb.selectFrom('tokens').select('user_id').where('kid_hash', '=', kidHash))
        .execute(),
    ]);
    return row ? { row, loginTypes: types.map((t) => t.login_type) } : undefined;
  }

  /** Live tokens of a user for one app, newest first. */
  async liveIds(userId: number, appId: number, now: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('tokens')
      .select('token_id')
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('token_id', 'desc')
      .execute();
    return rows.map((r) => r.token_id);
  }

  async revokeIds(tokenIds: number[], reason: string, now: number): Promise<number> {
    if (tokenIds.length === 0) return 0;
    const r = await this.db
      .updateTable('tokens')
      .set({ revoked_at: now, revoke_reason: reason })
      .where('token_id', 'in', tokenIds)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Revokes every unrevoked token of a user (optionally only those minted through one login method). */
  /** Revokes one token, unless it is revoked already. */
  async revoke(tokenId: number, reason: string, now: number): Promise<void> {
    const live = { token_id: tokenId, revoked_at: null };
    await updateRows(this.db, 'tokens', live, { revoked_at: now, revoke_reason: reason });
  }

  async revokeUser(userId: number, reason: string, now: number, methodId?: number): Promise<number> {
    let q = this.db
      .updateTable('tokens')
      .set({ revoked_at: now, revoke_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (methodId !== undefined) q = q.where('method_id', '=', methodId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async byUser(userId: number): Promise<TokenRow[]> {
    return this.db
      .selectFrom('tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('token_id', 'desc')
      .limit(200)
      .execute();
  }

  /** Deletes tokens that expired before `before` (kept a while for the operator's session view). */
  async purgeExpired(before: number): Promise<number> {
    const r = await this.db.deleteFrom('tokens').where('expires_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
