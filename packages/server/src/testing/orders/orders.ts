import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { TestService } from '../service.js';

/** Helpers of the orders tests: real HTTP against a test service. */

export const SANDBOX = { SANDBOX_PAYMENTS: 'true' };

/** An app with three products: a USD store gem pack (with store SKUs), a JPY web item and a KWD item. */
export async function appWithProducts(svc: TestService, body: Record<string, unknown> = {}) {
  const app = await svc.createApp(body);
  const add = async (p: Record<string, unknown>) => {
    const res = await svc.admin('POST', `/apps/${app.appId}/products`, p);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  await add({
    productCode: 'gems_100',
    name: '100 gems',
    price: 6.99,
    currency: 'USD',
    channelSkus: { 1: 'com.game.gems100', 2: 'gems_100_android' },
  });
  await add({ productCode: 'pass', name: 'Season pass', price: '9.90', currency: 'USD' });
  await add({ productCode: 'yen_box', name: 'Box', price: 120, currency: 'JPY' });
  await add({
    productCode: 'kwd_item',
    name: 'Item',
    price: '1.250',
    currency: 'KWD',
    channelSkus: { 2: 'kwd_item_android' },
  });
  return app;
}

export const storeOrder = (appId: number, extra: Record<string, unknown> = {}) => ({
  appId,
  userId: '1001',
  orderId: `o-${Math.random().toString(36).slice(2)}`,
  products: [{ productCode: 'gems_100', quantity: 2 }],
  game_server_id: 's1',
  game_role_id: 'r-77',
  game_ext: '{"vip":3}',
  platform: 1,
  channel: 1,
  paymentType: 0,
  sdkVersion: '6.9.0',
  ipCountry: 'JP',
  ...extra,
});

export const webOrder = (appId: number, extra: Record<string, unknown> = {}) => ({
  appId,
  userId: '1001',
  orderId: `w-${Math.random().toString(36).slice(2)}`,
  products: [
    { productCode: 'gems_100', quantity: 1 },
    { productCode: 'pass', quantity: 3 },
  ],
  game_server_id: 's1',
  game_role_id: 'r-77',
  game_ext: '',
  platform: 3,
  channel: 5,
  paymentType: 1,
  ipCountry: 'DE',
  ...extra,
});

export async function place(svc: TestService, body: Record<string, unknown>) {
  return svc.admin('POST', '/sandbox/orders', body);
}

export async function placeOk(svc: TestService, body: Record<string, unknown>) {
  const res = await place(svc, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.order;
}

export async function pay(svc: TestService, trxNo: number, body: Record<string, unknown> = {}) {
  return svc.admin('POST', `/sandbox/orders/${trxNo}/pay`, { outcome: 'success', ...body });
}

export async function payOk(svc: TestService, trxNo: number, body: Record<string, unknown> = {}) {
  const res = await pay(svc, trxNo, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export async function details(svc: TestService, trxNo: number) {
  const res = await svc.admin('GET', `/orders/${trxNo}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The number of rows of a table (to prove a refused request wrote nothing). */
export async function count(
  svc: TestService,
  table: 'orders' | 'order_items' | 'outbox' | 'supplements' | 'consumption_notices' | 'products' | 'placement_claims',
): Promise<number> {
  const row = await svc.services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function counts(svc: TestService) {
  return {
    orders: await count(svc, 'orders'),
    items: await count(svc, 'order_items'),
    outbox: await count(svc, 'outbox'),
    supplements: await count(svc, 'supplements'),
    notices: await count(svc, 'consumption_notices'),
  };
}

/** Asserts a body matches a wire schema exactly (every field, its type, no extra fields). */
export function assertSchema(schema: TSchema, value: unknown, what: string): void {
  const errors = [...Value.Errors(schema, value)].map((e) => `${e.path} ${e.message}`);
  assert.deepEqual(errors, [], `${what}: ${JSON.stringify(value)}`);
}
