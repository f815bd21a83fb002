import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../tables.js';
import type { OperatorsTable, OperatorSessionsTable, OperatorTokensTable } from './operators.tables.js';

export type OperatorRow = Selectable<OperatorsTable>;
export type SessionRow = Selectable<OperatorSessionsTable>;
export type TokenRow = Selectable<OperatorTokensTable>;

/** Every statement on operators, operator_sessions and operator_tokens (migration 0016). */
export class OperatorsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<OperatorsTable>): Promise<OperatorRow> {
    return this.db.insertInto('operators').values(row).returningAll().executeTakeFirstOrThrow();
  }

  byName(name: string): Promise<OperatorRow | undefined> {
    return this.db.selectFrom('operators').selectAll().where('name', '=', name).executeTakeFirst();
  }

  byId(id: number): Promise<OperatorRow | undefined> {
    return this.db.selectFrom('operators').selectAll().where('operator_id', '=', id).executeTakeFirst();
  }

  list(): Promise<OperatorRow[]> {
    return this.db.selectFrom('operators').selectAll().orderBy('name').execute();
  }

  async update(id: number, set: Updateable<OperatorsTable>): Promise<void> {
    await this.db.updateTable('operators').set(set).where('operator_id', '=', id).execute();
  }

  /** A failed sign-in: one more on the counter, and the lock when it reaches `max`. Answers the new count. */
  async countFailure(id: number, max: number, lockedUntil: number, at: number): Promise<number> {
    const row = await this.db
      .updateTable('operators')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: at }))
      .where('operator_id', '=', id)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    const n = Number(row.failed_logins);
    if (n >= max)
      await this.db
        .updateTable('operators')
        .set({ locked_until: lockedUntil, failed_logins: 0 })
        .where('operator_id', '=', id)
        .execute();
    return n;
  }

  /** Takes TOTP step `step` if it is newer than the last accepted (false: a replayed or older code). */
  async claimTotpStep(id: number, step: number): Promise<boolean> {
    const r = await this.db
      .updateTable('operators')
      .set({ totp_last_step: step })
      .where('operator_id', '=', id)
      .where('totp_last_step', '<', step)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Replaces the unused recovery codes if they are still `before` (false: another sign-in used one meanwhile). */
  async swapRecoveryCodes(id: number, before: string, after: string): Promise<boolean> {
    const r = await this.db
      .updateTable('operators')
      .set({ recovery_codes: after })
      .where('operator_id', '=', id)
      .where('recovery_codes', '=', before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // --- sessions ---

  async insertSession(row: Insertable<OperatorSessionsTable>): Promise<void> {
    await this.db.insertInto('operator_sessions').values(row).execute();
  }

  session(hash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('operator_sessions').selectAll().where('session_hash', '=', hash).executeTakeFirst();
  }

  async deleteSession(hash: string): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('session_hash', '=', hash).execute();
  }

  /** Drops the sessions past their expiry (run at each sign-in, so the table holds live sessions only). */
  async deleteExpiredSessions(at: number): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('expires_at', '<=', at).execute();
  }

  /** Ends every session of an operator (disabled, role or password changed). */
  async deleteSessionsOf(operatorId: number): Promise<void> {
    await this.db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).execute();
  }

  // --- API tokens ---

  async insertToken(row: Insertable<OperatorTokensTable>): Promise<TokenRow> {
    return this.db.insertInto('operator_tokens').values(row).returningAll().executeTakeFirstOrThrow();
  }

  tokenByHash(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('operator_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  tokensOf(operatorId: number): Promise<TokenRow[]> {
    return this.db
      .selectFrom('operator_tokens')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .orderBy('token_id')
      .execute();
  }

  tokenById(tokenId: number): Promise<TokenRow | undefined> {
    return this.db.selectFrom('operator_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst();
  }

  /** Records a use; at most one write a minute per token, so a busy script does not write on every request. */
  async touchToken(tokenId: number, at: number): Promise<void> {
    await this.db
      .updateTable('operator_tokens')
      .set({ last_used_at: at })
      .where('token_id', '=', tokenId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at - 60_000)]))
      .execute();
  }

  async revokeToken(tokenId: number, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('operator_tokens')
      .set({ revoked_at: at })
      .where('token_id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
