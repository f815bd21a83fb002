import type { Kysely } from 'kysely';

// 0017: per app, what the web payment page may be framed by and where providers send the browser back
// (web-pay/, docs/web-payment.md, "Embedding the page" and "Return URLs").
// - web_pay_settings.frame_ancestors: JSON [origin]: the page's CSP frame-ancestors; [] keeps 'none'.
// - web_pay_settings.return_urls: JSON [url]: return URLs a payment step may take besides the page's own origin.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('web_pay_settings')
    .addColumn('frame_ancestors', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('web_pay_settings')
    .addColumn('return_urls', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
