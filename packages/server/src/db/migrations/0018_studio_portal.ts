import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0018: the studio portal (portal/, docs/portal.md). A studio developer is its own kind of account, never an
// operator: it signs in with a name, an argon2id password and a TOTP second factor exactly like an operator (the
// secret sealed under the master key, recovery codes as SHA-256 hashes, failures counted towards a lock), and sees
// only the apps listed for it in studio_developer_apps. Portal sessions are stored by a SHA-256 of their value only.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('studio_developers'), 'developer_id', dialect)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret_enc', 'text', (c) => c.notNull())
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('recovery_codes', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('last_login_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('studio_developer_apps')
    .addColumn('developer_id', 'bigint', (c) => c.notNull().references('studio_developers.developer_id'))
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addPrimaryKeyConstraint('studio_developer_apps_pk', ['developer_id', 'app_id'])
    .execute();

  await db.schema
    .createTable('studio_sessions')
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('developer_id', 'bigint', (c) => c.notNull().references('studio_developers.developer_id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('studio_sessions_developer').on('studio_sessions').column('developer_id').execute();
}
