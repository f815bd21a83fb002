import { deleteRows, rowByKey, rowsByKey, updateOne, updateRows, type Where } from '../db/by-key.js';
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
    return this.db.transaction().execute(async (trx: Kysely<Tables>) => {
      const pending = { person_id: row.person_id, state: 'pending' } as const;
      await updateRows(trx, 'person_invitations', pending, { state: 'revoked', finished_at: at });
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
  updatePending(id: number, tokenHash: string, set: Updateable<PersonInvitationsTable>): Promise<boolean> {
    return this.changeOne({ invitation_id: id, token_hash: tokenHash, state: 'pending' }, set);
  }

  /** Resend: a new token and expiry for an invitation not accepted (a revoked or expired one comes back pending). */
  renew(id: number, tokenHash: string, expiresAt: number, by: string, at: number): Promise<boolean> {
    const renewed = { token_hash: tokenHash, expires_at: expiresAt, state: 'pending', created_by: by, created_at: at };
    return this.changeOne(
      { invitation_id: id, state: ['!=', 'accepted'] },
      { ...renewed, pending_totp_enc: null, finished_at: null },
    );
  }

  /** Revokes a pending invitation (false: it was not pending). */
  revoke(id: number, at: number): Promise<boolean> {
    return this.changeOne({ invitation_id: id, state: 'pending' }, { state: 'revoked', finished_at: at });
  }

  /** Changes one invitation, if it still is as `where` says (false: it was not). */
  private changeOne(
    where: Where<Tables, 'person_invitations'>,
    set: Updateable<PersonInvitationsTable>,
  ): Promise<boolean> {
    return updateOne(this.db, 'person_invitations', where, set);
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
    return this.db.transaction().execute(async (trx: Kysely<Tables>) => {
      const stillGood = {
        invitation_id: inv.id,
        token_hash: inv.tokenHash,
        state: 'pending',
        expires_at: ['>', inv.at],
      } as const;
      const accepted = { state: 'accepted', finished_at: inv.at, pending_totp_enc: null } as const;
      if (!(await updateOne(trx, 'person_invitations', stillGood, accepted))) return false;
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
  usePasskey(id: number, before: number, after: number, at: number): Promise<boolean> {
    const unused = { passkey_id: id, sign_count: before };
    return updateOne(this.db, 'person_passkeys', unused, { sign_count: after, last_used_at: at });
  }

  async deletePasskey(personId: number, passkeyId: number): Promise<boolean> {
    return (await deleteRows(this.db, 'person_passkeys', { passkey_id: passkeyId, person_id: personId })) === 1;
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
    // person_id null (a challenge for no person) is matched by `is null`.
    const live = { challenge, purpose, realm, person_id: personId, expires_at: ['>', at] } as const;
    return (await deleteRows(this.db, 'webauthn_challenges', live)) === 1;
  }
}
