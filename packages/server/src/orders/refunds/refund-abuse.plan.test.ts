import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { startTestService, type TestService } from '../../testing/service.js';
import { refundersQueries, type RefundWindow } from './refund-abuse.queries.js';

/**
 * The refunders view reads through indexes on both backends (docs/orders.md "Refund abuse"): the ranking and the
 * amounts from the partial index orders_refunds (migration 0021), the supplements owed from supplements_arrears.
 * The plans are asked of each database for the very statements the service runs, over tables shaped like a live
 * platform's (several apps, mostly payments, a few refunds and supplements; PostgreSQL's statistics fresh, as
 * autovacuum keeps them), so PostgreSQL chooses as it would in production.
 */
describe('refund abuse: query plans', () => {
  let svc: TestService;
  let db: Kysely<Tables>;
  const w: RefundWindow = { appId: 0, from: 0, to: Date.now() + 1 };
  const users = ['1000', '1050'];

  before(async () => {
    svc = await startTestService({}, { dispatcher: false });
    db = svc.services.database.db;
    // Rows written as the orders store writes them (4000 orders an app of 200 players, one in 10 a refund, half of
    // the refunds owing a supplement); nothing reads them but the planner.
    const now = Date.now();
    for (let a = 0; a < 4; a++) {
      const app = await svc.createApp({ name: `plan ${a}` });
      if (a === 1) w.appId = app.appId;
      for (let start = 0; start < 4000; start += 500) {
        const rows = Array.from({ length: 500 }, (_, k) => {
          const i = start + k;
          const refund = i % 10 === 0;
          const at = now - i * 60_000;
          return {
            app_id: app.appId,
            user_id: String(1000 + (i % 200)),
            trx_type: refund ? 2 : 0,
            out_trx_no: refund ? null : `p-${i}`,
            original_trx_no: null,
            status: 0,
            platform: 1,
            channel: 1,
            payment_type: 0,
            currency: 'USD',
            total_minor: 699,
            region: refund ? null : 'JP',
            game_server_id: 's1',
            game_role_id: `r-${i % 200}`,
            origin: refund ? 'refund' : 'client',
            merged_receipts: 0,
            created_at: at,
            updated_at: at,
            success_time: at,
          };
        });
        const written = await db.insertInto('orders').values(rows).returningAll().execute();
        const owed = written.filter((o) => o.trx_type === 2).filter((_, n) => n % 2 === 0);
        if (owed.length > 0)
          await db
            .insertInto('supplements')
            .values(
              owed.map((o) => ({
                refund_trx_no: o.trx_no,
                app_id: o.app_id,
                user_id: o.user_id,
                original_trx_no: o.trx_no,
                product_id: 'com.game.gems100',
                currency: 'USD',
                out_trade_no: `S-${o.trx_no}`,
                bank_trade_no: null,
                refund_minor: 699,
                channel_id: 1,
                channel_type: 1,
                platform: 1,
                supply_status: 1,
                paying_trx_no: null,
                created_at: o.created_at,
                supplied_at: null,
              })),
            )
            .execute();
      }
    }
    if (svc.services.database.dialect.name === 'postgres') {
      await sql`vacuum analyze orders`.execute(db);
      await sql`vacuum analyze supplements`.execute(db);
    }
  });
  after(async () => {
    await svc?.close();
  });

  /** The plan of a statement, as text: EXPLAIN QUERY PLAN (SQLite) or EXPLAIN (PostgreSQL). */
  async function plan(query: { compile(): CompiledQuery }): Promise<string> {
    const { sql: text, parameters } = query.compile();
    if (svc.services.database.dialect.name === 'sqlite') {
      const { rows } = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
      );
      return rows.map((r) => r.detail).join('\n');
    }
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${text}`, [...parameters]),
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  /** The plan reads `table` through `index` (covering on SQLite, index-only on PostgreSQL when `only`), never by a scan of the table. */
  function assertThrough(p: string, table: string, index: RegExp): void {
    assert.match(p, index, p);
    assert.doesNotMatch(p, new RegExp(`SCAN ${table}\\b(?! USING)|Seq Scan on ${table}\\b`), p);
  }

  it('ranks the refunders from orders_refunds alone, the first page and the next', async () => {
    for (const q of [
      refundersQueries.top(db, w, undefined, 50),
      refundersQueries.top(db, { ...w, currency: 'USD' }, { refunds: 2, amountKey: 139800, userId: '1010' }, 50),
    ]) {
      const p = await plan(q);
      assertThrough(p, 'orders', /COVERING INDEX orders_refunds|Index Only Scan using orders_refunds/);
    }
  });

  it('sums the amounts per currency through an index of orders, and counts the supplements owed through supplements_arrears', async () => {
    assertThrough(await plan(refundersQueries.byCurrency(db, w, users)), 'orders', /orders_refunds|orders_user/);
    assertThrough(await plan(refundersQueries.pending(db, w.appId, users)), 'supplements', /supplements_arrears/);
  });
});
