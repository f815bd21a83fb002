import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0001: the app registry, the platform key pairs (5.3) and the one-time nonces (5.1, 5.2).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('apps'), 'app_id', dialect)
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('secret_rotated_at', 'bigint', (c) => c.notNull())
    .addColumn('callback_urls', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('role_query_url', 'text')
    .addColumn('role_list_url', 'text')
    .addColumn('pre_order_check_url', 'text')
    .addColumn('cancellation_callback_url', 'text')
    .addColumn('partner_url', 'text')
    .addColumn('allowed_ips', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('union_id_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('platform_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('public_pem', 'text', (c) => c.notNull())
    .addColumn('private_pem_enc', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();

  await db.schema
    .createTable('nonces')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('nonces_pk', ['scope', 'nonce'])
    .execute();
  await db.schema.createIndex('nonces_expires_at').on('nonces').column('expires_at').execute();
}
