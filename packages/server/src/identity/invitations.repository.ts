import { rowByKey, rowsByKey } from '../db/by-key.js';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { PeopleTable, PersonInvitationsTable, PersonPasskeysTable } from './identity.tables.js';
import type { Realm } from './people.repository.js';

export type InvitationRow = Selectable<PersonInvitationsTable>;
export type PasskeyRow = Selectable<PersonPasskeysTable>;
/** An invitation with the name and realm of its person. */
export type InvitationWithPerson = InvitationRow & { name: string; realm: string };

/** Every statement on person_invitations, person_passkeys and webauthn_challenges (migration 0033). */
export class InvitationsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  private withPerson() {
    return this.db
      .selectFrom('person_invitations as i')
      .innerJoin('people as p', 'p.person_id', 'i.person_id')
      .selectAll('i')
      .select(['p.name', 'p.realm']);
  }

  /** A new invitation for a person; any earlier pending one of that person is revoked in the same transaction. */
  async insert(row: Insertable<PersonInvitationsTable>, at: number): Promise<InvitationRow> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('person_invitations')
        .set({ state: 'revoked', finished_at: at })
        .where('person_id', '=', row.person_id)
        .where('state', '=', 'pending')
        .execute();
      return trx.insertInto('person_invitations').values(row).returningAll().executeTakeFirstOrThrow();
    });
  }

  byHash(tokenHash: string): Promise<InvitationWithPerson | undefined> {
    return this.withPerson().where('i.token_hash', '=', tokenHash).executeTakeFirst();
  }

  byId(id: number): Promise<InvitationWithPerson | undefined> {
    return this.withPerson().where('i.invitation_id', '=', id).executeTakeFirst();
  }

  /** The newest invitations first (at most `limit`), of one realm or both. */
  list(limit: number, realm?: Realm): Promise<InvitationWithPerson[]> {
    let q = this.withPerson();
    if (realm) q = q.where('p.realm', '=', realm);
    return q.orderBy('i.invitation_id', 'desc').limit(limit).execute();
  }

  /** Changes a pending invitation whose token is still `tokenHash` (false: used, revoked or resent meanwhile). */
  async updatePending(id: number, tokenHash: string, set: Updateable<PersonInvitationsTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('person_invitations')
      .set(set)
      .where('invitation_id', '=', id)
      .where('token_hash', '=', tokenHash)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Resend: a new token and expiry for an invitation not accepted (a revoked or expired one comes back pending). */
  async renew(id: number, tokenHash: string, expiresAt: number, by: string, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('person_invitations')
      .set({ token_hash: tokenHash, expires_at: expiresAt, state: 'pending', created_by: by, created_at: at })
      .set({ pending_totp_enc: null, finished_at: null })
      .where('invitation_id', '=', id)
      .where('state', '!=', 'accepted')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Revokes a pending invitation (false: it was not pending). */
  async revoke(id: number, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('person_invitations')
      .set({ state: 'revoked', finished_at: at })
      .where('invitation_id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * The acceptance, in one transaction: the invitation goes from pending to accepted only if its token is still
   * `tokenHash` (the race of two acceptances, or of an acceptance and a revocation, is closed here: one wins); then
   * the person's new credentials, its passkey, and the end of its sessions. False: the link was no longer good.
   */
  async accept(
    inv: { id: number; tokenHash: string; personId: number; at: number },
    person: Updateable<PeopleTable>,
    passkey: Insertable<PersonPasskeysTable> | null,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('person_invitations')
        .set({ state: 'accepted', finished_at: inv.at, pending_totp_enc: null })
        .where('invitation_id', '=', inv.id)
        .where('token_hash', '=', inv.tokenHash)
        .where('state', '=', 'pending')
        .where('expires_at', '>', inv.at)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await trx.updateTable('people').set(person).where('person_id', '=', inv.personId).execute();
      // A reset is for lost factors: the passkeys the account had go with the old TOTP secret.
      await trx.deleteFrom('person_passkeys').where('person_id', '=', inv.personId).execute();
      if (passkey) await trx.insertInto('person_passkeys').values(passkey).execute();
      await trx.deleteFrom('person_sessions').where('person_id', '=', inv.personId).execute();
      return true;
    });
  }

  // --- passkeys ---

  async insertPasskey(row: Insertable<PersonPasskeysTable>): Promise<PasskeyRow> {
    return this.db.insertInto('person_passkeys').values(row).returningAll().executeTakeFirstOrThrow();
  }

  passkeysOf(personId: number): Promise<PasskeyRow[]> {
    return rowsByKey(this.db, 'person_passkeys', { person_id: personId }, ['passkey_id']);
  }

  passkeyByCredential(credentialId: string): Promise<PasskeyRow | undefined> {
    return rowByKey(this.db, 'person_passkeys', { credential_id: credentialId });
  }

  /** Records a use: the new signature counter, if it still is `before` (false: another sign-in used it meanwhile). */
  async usePasskey(id: number, before: number, after: number, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('person_passkeys')
      .set({ sign_count: after, last_used_at: at })
      .where('passkey_id', '=', id)
      .where('sign_count', '=', before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async deletePasskey(personId: number, passkeyId: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('person_passkeys')
      .where('passkey_id', '=', passkeyId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  // --- WebAuthn challenges ---

  async insertChallenge(row: Insertable<Tables['webauthn_challenges']>, at: number): Promise<void> {
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', at).execute();
    await this.db.insertInto('webauthn_challenges').values(row).execute();
  }

  /**
   * Takes challenge `challenge` for `purpose` in `realm` (and `personId`, when the challenge was for a person): true
   * once, while it has not expired; the delete is the claim, so two answers to one challenge cannot both pass.
   */
  async takeChallenge(
    challenge: string,
    purpose: string,
    realm: Realm,
    personId: number | null,
    at: number,
  ): Promise<boolean> {
    let q = this.db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('realm', '=', realm)
      .where('expires_at', '>', at);
    q = personId === null ? q.where('person_id', 'is', null) : q.where('person_id', '=', personId);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
