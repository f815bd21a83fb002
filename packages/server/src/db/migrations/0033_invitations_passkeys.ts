import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0033: invitations the invitee completes, and passkeys (issue 42, docs/operators.md "Invitations and passkeys").
// - person_invitations: a single-use, expiring link (its token kept as a SHA-256 only) with which a new operator or
//   studio developer sets its own password and second factor (kind 'invite'), or an existing one replaces them
//   (kind 'reset'). The operator who made it sees its state only. A TOTP secret the invitee is enrolling waits here,
//   sealed, until the invitee confirms it with a code.
// - person_passkeys: WebAuthn credentials (several per person, named), a second factor and a way to sign in.
// - webauthn_challenges: each challenge the service hands a browser, good once and for minutes (consumed by a
//   conditional delete).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('person_invitations'), 'invitation_id', dialect)
    .addColumn('person_id', 'bigint', (c) => c.notNull().references('people.person_id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('pending_totp_enc', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('person_invitations_person').on('person_invitations').column('person_id').execute();

  await addAutoIdColumn(db.schema.createTable('person_passkeys'), 'passkey_id', dialect)
    .addColumn('person_id', 'bigint', (c) => c.notNull().references('people.person_id'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('person_passkeys_person').on('person_passkeys').column('person_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('realm', 'text', (c) => c.notNull())
    .addColumn('person_id', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
}
