import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0013: per-app store settings (app-stores/store-settings.service.ts): one row per app and store ('apple' or
// 'google'), the columns of the other store left null. The secrets (App Store Server API .p8 key, Google service
// account JSON) are sealed under the master key (`*_enc`, master-key/sealed-columns.ts); the surrogate
// `settings_id` is the key a master key rotation pages by.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('app_store_settings'), 'settings_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // Apple
    .addColumn('bundle_id', 'text')
    .addColumn('app_apple_id', 'bigint')
    .addColumn('environment', 'text')
    .addColumn('root_certificates_pem', 'text')
    .addColumn('api_issuer_id', 'text')
    .addColumn('api_key_id', 'text')
    .addColumn('api_private_key_enc', 'text')
    // Google
    .addColumn('package_name', 'text')
    .addColumn('service_account_enc', 'text')
    .addColumn('service_account_email', 'text')
    .addColumn('push_audience', 'text')
    .addColumn('push_service_account_email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('app_store_settings_app_store', ['app_id', 'store'])
    .execute();
}
