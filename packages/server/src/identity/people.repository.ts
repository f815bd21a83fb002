import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { PeopleTable, PersonSessionsTable, PersonTokensTable } from './identity.tables.js';
import { rowByKey, updateOne } from '../db/by-key.js';

export type PersonRow = Selectable<PeopleTable>;
export type SessionRow = Selectable<PersonSessionsTable>;
export type TokenRow = Selectable<PersonTokensTable>;
/** The namespace of a sign-in name: operators (platform) and studio developers (studio). */
export type Realm = 'platform' | 'studio';
/** What a person may do: a platform role (appId null) or a studio role on an app. */
export interface Grant {
  appId: number | null;
  role: string;
}

/** Every statement on people, person_grants, person_sessions and person_tokens (migration 0025). */
export class PeopleRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<PeopleTable>, grants: Grant[]): Promise<PersonRow> {
    return this.db.transaction().execute(async (trx) => {
      const person = await trx.insertInto('people').values(row).returningAll().executeTakeFirstOrThrow();
      await insertGrants(trx, person.person_id, grants);
      return person;
    });
  }

  byName(realm: Realm, name: string): Promise<PersonRow | undefined> {
    return rowByKey(this.db, 'people', { realm, name });
  }

  byId(id: number): Promise<PersonRow | undefined> {
    return this.db.selectFrom('people').selectAll().where('person_id', '=', id).executeTakeFirst();
  }

  /** Whether the realm has any account at all (one indexed row read). */
  async any(realm: Realm): Promise<boolean> {
    const row = await this.db
      .selectFrom('people')
      .select('person_id')
      .where('realm', '=', realm)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  list(realm: Realm): Promise<PersonRow[]> {
    return this.db.selectFrom('people').selectAll().where('realm', '=', realm).orderBy('name').execute();
  }

  async update(id: number, set: Updateable<PeopleTable>): Promise<void> {
    await this.db.updateTable('people').set(set).where('person_id', '=', id).execute();
  }

  /** A failed sign-in: one more on the counter, and the lock when it reaches `max`. Answers the new count. */
  async countFailure(id: number, max: number, lockedUntil: number, at: number): Promise<number> {
    const row = await this.db
      .updateTable('people')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: at }))
      .where('person_id', '=', id)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    const n = Number(row.failed_logins);
    if (n >= max) await this.update(id, { locked_until: lockedUntil, failed_logins: 0 });
    return n;
  }

  /** Takes TOTP step `step` if it is newer than the last accepted (false: a replayed or older code). */
  claimTotpStep(id: number, step: number): Promise<boolean> {
    return updateOne(this.db, 'people', { person_id: id, totp_last_step: ['<', step] }, { totp_last_step: step });
  }

  /** Replaces the unused recovery codes if they are still `before` (false: another sign-in used one meanwhile). */
  swapRecoveryCodes(id: number, before: string, after: string): Promise<boolean> {
    return updateOne(this.db, 'people', { person_id: id, recovery_codes: before }, { recovery_codes: after });
  }

  // --- grants ---

  async grantsOf(id: number): Promise<Grant[]> {
    const rows = await this.db
      .selectFrom('person_grants')
      .select(['app_id', 'role'])
      .where('person_id', '=', id)
      .orderBy('app_id')
      .execute();
    return rows.map((r) => ({ appId: r.app_id === null ? null : Number(r.app_id), role: r.role }));
  }

  /** Replaces the person's grants in one transaction. */
  async setGrants(id: number, grants: Grant[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('person_grants').where('person_id', '=', id).execute();
      await insertGrants(trx, id, grants);
    });
  }

  // --- sessions ---

  async insertSession(row: Insertable<PersonSessionsTable>): Promise<void> {
    await this.db.insertInto('person_sessions').values(row).execute();
  }

  session(hash: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('person_sessions').selectAll().where('session_hash', '=', hash).executeTakeFirst();
  }

  async deleteSession(hash: string): Promise<void> {
    await this.db.deleteFrom('person_sessions').where('session_hash', '=', hash).execute();
  }

  /** Drops the sessions past their expiry (run at each sign-in, so the table holds live sessions only). */
  async deleteExpiredSessions(at: number): Promise<void> {
    await this.db.deleteFrom('person_sessions').where('expires_at', '<=', at).execute();
  }

  /** Ends every session of a person (disabled, grants or password changed). */
  async deleteSessionsOf(id: number): Promise<void> {
    await this.db.deleteFrom('person_sessions').where('person_id', '=', id).execute();
  }

  // --- API tokens ---

  async insertToken(row: Insertable<PersonTokensTable>): Promise<TokenRow> {
    return this.db.insertInto('person_tokens').values(row).returningAll().executeTakeFirstOrThrow();
  }

  tokenByHash(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('person_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  tokensOf(id: number): Promise<TokenRow[]> {
    return this.db.selectFrom('person_tokens').selectAll().where('person_id', '=', id).orderBy('token_id').execute();
  }

  tokenById(tokenId: number): Promise<TokenRow | undefined> {
    return this.db.selectFrom('person_tokens').selectAll().where('token_id', '=', tokenId).executeTakeFirst();
  }

  /** Records a use; at most one write a minute per token, so a busy script does not write on every request. */
  async touchToken(tokenId: number, at: number): Promise<void> {
    await this.db
      .updateTable('person_tokens')
      .set({ last_used_at: at })
      .where('token_id', '=', tokenId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at - 60_000)]))
      .execute();
  }

  revokeToken(tokenId: number, at: number): Promise<boolean> {
    return updateOne(this.db, 'person_tokens', { token_id: tokenId, revoked_at: null }, { revoked_at: at });
  }
}

async function insertGrants(db: Kysely<Tables>, id: number, grants: Grant[]): Promise<void> {
  if (grants.length > 0)
    await db
      .insertInto('person_grants')
      .values(grants.map((g) => ({ person_id: id, app_id: g.appId, role: g.role })))
      .execute();
}
