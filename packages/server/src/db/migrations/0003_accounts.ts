import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0003: platform accounts - users, their login methods, MAC access tokens (5.2), the apps each user
// logged into (cancellation events go there) and bans.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('users'), 'user_id', dialect)
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('regist_time', 'bigint', (c) => c.notNull())
    .addColumn('regist_ip', 'text', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('cancel_requested_at', 'bigint')
    .addColumn('cancel_due_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .execute();
  await db.schema.createIndex('users_cancel_due').on('users').columns(['status', 'cancel_due_at']).execute();

  await addAutoIdColumn(db.schema.createTable('login_methods'), 'method_id', dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id'))
    .addColumn('login_type', 'integer', (c) => c.notNull())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('union_id', 'text')
    .addColumn('nickname', 'text')
    .addColumn('avatar', 'text')
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('login_methods_open_id', ['login_type', 'open_id'])
    .execute();
  await db.schema.createIndex('login_methods_user').on('login_methods').column('user_id').execute();
  await db.schema.createIndex('login_methods_email').on('login_methods').column('email').execute();

  await addAutoIdColumn(db.schema.createTable('tokens'), 'token_id', dialect)
    .addColumn('kid_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id'))
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('method_id', 'bigint', (c) => c.notNull())
    .addColumn('login_type', 'integer', (c) => c.notNull())
    .addColumn('open_id', 'text', (c) => c.notNull())
    .addColumn('mac_key_enc', 'text', (c) => c.notNull())
    .addColumn('user_region', 'text', (c) => c.notNull())
    .addColumn('issued_ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'text')
    .execute();
  await db.schema.createIndex('tokens_user_app').on('tokens').columns(['user_id', 'app_id']).execute();
  await db.schema.createIndex('tokens_expires_at').on('tokens').column('expires_at').execute();

  await db.schema
    .createTable('user_apps')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id'))
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('first_login_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_apps_pk', ['user_id', 'app_id'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('user_bans'), 'ban_id', dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.user_id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('lifted_at', 'bigint')
    .addColumn('lifted_by', 'text')
    .execute();
  await db.schema.createIndex('user_bans_user').on('user_bans').column('user_id').execute();
}
