import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0016: operator accounts (operators/, docs/operators.md). An operator signs in with a name, an argon2id password
// hash and a TOTP second factor (the secret sealed under the master key, `totp_secret_enc`; recovery codes kept as
// SHA-256 hashes); failed logins count towards a lock. Console sessions and per-operator API tokens are stored by a
// SHA-256 of their value only. The audit trail gains the authenticated operator, an event name for logins and
// account changes, and a note (the caller's X-Operator header, kept for compatibility, never trusted).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('operators'), 'operator_id', dialect)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('totp_secret_enc', 'text', (c) => c.notNull())
    // The last TOTP time step accepted: a code is good once (replay).
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON array of SHA-256 hex of the unused recovery codes.
    .addColumn('recovery_codes', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('last_login_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.operator_id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_sessions_operator').on('operator_sessions').column('operator_id').execute();

  await addAutoIdColumn(db.schema.createTable('operator_tokens'), 'token_id', dialect)
    .addColumn('operator_id', 'bigint', (c) => c.notNull().references('operators.operator_id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('operator_tokens_operator').on('operator_tokens').column('operator_id').execute();

  await db.schema.alterTable('admin_actions').addColumn('operator_id', 'bigint').execute();
  await db.schema.alterTable('admin_actions').addColumn('event', 'text').execute();
  await db.schema.alterTable('admin_actions').addColumn('note', 'text').execute();
}
