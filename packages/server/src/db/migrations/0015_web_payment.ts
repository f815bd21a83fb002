import type { Kysely } from 'kysely';

// 0015: the official web payment page (web-pay/, docs/web-payment.md).
// - pay_links: launch links of the in-game web view, single-use and short-lived; only the sha256 of the link's
//   token is kept, so a database copy opens no payment page.
// - web_pay_settings: per app, the servers the official page offers (JSON [{serverId, name}]).
// - precheck_messages: per app, code and language, the game's own text for a custom pre-order check code (section 7).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pay_links')
    .addColumn('link_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('game_role_id', 'text', (c) => c.notNull())
    .addColumn('game_server_id', 'text', (c) => c.notNull())
    .addColumn('game_ext', 'text')
    .addColumn('lang', 'text')
    .addColumn('user_region', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('pay_links_expires').on('pay_links').column('expires_at').execute();

  await db.schema
    .createTable('web_pay_settings')
    .addColumn('app_id', 'bigint', (c) => c.primaryKey().references('apps.app_id'))
    .addColumn('servers', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('precheck_messages')
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('code', 'integer', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('precheck_messages_pk', ['app_id', 'code', 'lang'])
    .execute();
}
