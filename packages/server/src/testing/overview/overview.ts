import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { HOUR_MS } from '../../db/time-buckets.js';

/** A whole hour some hours before `now`: a window start whose buckets are whole and no live traffic touches. */
export const hourAgo = (hours: number, now = Date.now()) => Math.floor(now / HOUR_MS) * HOUR_MS - hours * HOUR_MS;

/**
 * Known traffic for the overview tests, written straight into the tables (the overview only reads them): per app,
 * events of three hours in every state with their attempts, orders of each kind over two days, supplements, and
 * game-call tries. The counts differ per app and hour so a figure read from the wrong bucket shows.
 */
export async function seedTraffic(db: Kysely<Tables>, appIds: number[], start: number): Promise<void> {
  const events: Insertable<Tables['outbox']>[] = [];
  const states = ['delivered', 'pending', 'dead'] as const;
  appIds.forEach((appId, a) => {
    for (let h = 0; h < 3; h++)
      states.forEach((state, s) => {
        for (let i = 0; i < 1 + ((a + h + s) % 3); i++)
          events.push({
            app_id: appId,
            type: 'payment',
            target: 'callback',
            server_id: null,
            body: '{}',
            state,
            attempts: 1,
            next_attempt_at: start,
            created_at: start + h * HOUR_MS + 60_000 * (i + 1),
            delivered_at: state === 'delivered' ? start + h * HOUR_MS + 120_000 : null,
            last_error: state === 'delivered' ? null : 'HTTP 500',
          });
      });
  });
  const inserted = await db
    .insertInto('outbox')
    .values(events)
    .returning(['event_id', 'app_id', 'state', 'created_at'])
    .execute();
  await db
    .insertInto('delivery_attempts')
    .values(
      inserted.map((e, i) => ({
        event_id: e.event_id,
        app_id: e.app_id,
        attempt_no: 1,
        started_at: Number(e.created_at) + 1000,
        url: `http://127.0.0.1:9/app${e.app_id}/callback`,
        http_status: e.state === 'delivered' ? 200 : i % 2 ? 500 : null,
        latency_ms: 5 + (i % 7) * 40,
        outcome: e.state === 'delivered' ? 'delivered' : i % 2 ? 'http_status' : 'timeout',
        response_body: null,
        error: null,
      })),
    )
    .execute();

  const orders: Insertable<Tables['orders']>[] = [];
  appIds.forEach((appId, a) => {
    for (let d = 0; d < 2; d++)
      for (let i = 0; i < 4 + a + d; i++) {
        const trxType = i % 4 === 3 ? 2 : 0;
        orders.push({
          app_id: appId,
          user_id: `u${i}`,
          trx_type: trxType,
          out_trx_no: null,
          original_trx_no: null,
          status: i % 2,
          platform: 1,
          channel: 1,
          payment_type: 0,
          currency: 'USD',
          total_minor: 100,
          region: null,
          client_amount_minor: null,
          client_currency: null,
          client_region: null,
          bank_trx_no: null,
          game_server_id: null,
          game_role_id: null,
          game_ext: null,
          origin: 'sandbox',
          merged_receipts: 0,
          sdk_version: null,
          ip_country: null,
          request_digest: null,
          notify_event_id: null,
          failure_reason: null,
          created_at: start + d * 24 * HOUR_MS + i * 60_000,
          updated_at: start,
          success_time: null,
        });
      }
  });
  const placed = await db
    .insertInto('orders')
    .values(orders)
    .returning(['trx_no', 'app_id', 'trx_type', 'created_at'])
    .execute();
  // A supplement per refund order (its refund_trx_no): the first of each app still pending, the others supplied.
  const refunds = placed.filter((o) => o.trx_type === 2);
  await db
    .insertInto('supplements')
    .values(
      refunds.map((r, i) => ({
        refund_trx_no: r.trx_no,
        app_id: r.app_id,
        user_id: 'u3',
        original_trx_no: r.trx_no,
        product_id: 'gems',
        currency: 'USD',
        out_trade_no: `out-${r.trx_no}`,
        bank_trade_no: null,
        refund_minor: 100,
        channel_id: 1,
        channel_type: 1,
        platform: 1,
        supply_status: refunds.findIndex((x) => x.app_id === r.app_id) === i ? 1 : 2,
        paying_trx_no: null,
        created_at: Number(r.created_at),
        supplied_at: null,
      })),
    )
    .execute();

  const outcomes = ['ok', 'timeout', 'ok', 'invalid_response', 'ok'];
  await db
    .insertInto('game_calls')
    .values(
      appIds.flatMap((appId, a) =>
        outcomes.slice(0, 3 + a * 2).map((outcome, i) => ({
          app_id: appId,
          kind: i % 2 ? 'pre_order_check' : 'role_query',
          started_at: start + i * 60_000,
          url: 'http://127.0.0.1:9/role',
          try_no: 1,
          http_status: null,
          latency_ms: 10,
          outcome,
          error: null,
          role_id: 'r1',
          server_id: 's1',
          user_id: null,
        })),
      ),
    )
    .execute();
}

/** The figures of one overview chart in a page (the console's or the portal's): `series@x` -> { value, href }. */
export async function chartFigures(page: import('playwright-core').Page, chart: string) {
  await page.locator(`figure[data-chart="${chart}"]`).waitFor();
  return page
    .locator(`figure[data-chart="${chart}"] [data-series]`)
    .evaluateAll((els) =>
      Object.fromEntries(
        els.map((el) => [
          `${el.getAttribute('data-series')}@${el.getAttribute('data-x')}`,
          { value: el.getAttribute('data-value'), href: el.getAttribute('href') },
        ]),
      ),
    );
}
