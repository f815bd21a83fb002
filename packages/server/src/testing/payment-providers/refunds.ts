import assert from 'node:assert/strict';
import type { WebPayFixture } from '../web-pay/web-pay.js';
import { placeStripeOrder, startStripe, webViewSession } from './payment-providers.js';
import { age as agePaypal, placePaypalOrder, startPaypal } from './paypal.js';
import { mainlandSession, placeAlipayOrder, reachCashier, startAlipay } from './alipay.js';
import { placeWechatOrder, startWechatpay } from './wechatpay.js';

/**
 * The four providers behind one face for the refund tests: a paid web order of the provider's app, the refund calls
 * its fake received, and the fake's knobs (refuse, answer pending, settle).
 */
export interface RefundCase {
  provider: 'stripe' | 'paypal' | 'alipay' | 'wechatpay';
  f: WebPayFixture;
  /** The app whose orders the provider takes. */
  appId: number;
  currency: string;
  /** A paid order of `quantity` units (the game was sent its 2.4): its trxNo and total amount (decimal). */
  paidOrder(roleId: string, quantity?: number): Promise<{ trxNo: number; total: number }>;
  /** The refund calls (POST) the fake received, with the idempotency key each carried. */
  refundCalls(): Array<{ key: string | null }>;
  /** Refuse the next refunds with the provider's own code (null: stop refusing). */
  refuse(code: string | null): void;
  /** Answer refunds as still processing until `settle`. */
  pending(on: boolean): void;
  /** Every pending refund at the fake finishes successfully. */
  settle(): void;
  /** Sends again every refund webhook the fake sent for the API's refunds (a provider's retry): their HTTP statuses. */
  replayRefundWebhooks(): Promise<number[]>;
  /** The refund ids the provider's refund webhooks name (as the webhook route reads them), for the API's refunds. */
  webhookRefundIds(): string[];
  close(): Promise<void>;
}

/** The admin API's view of an order's status, polled until `status` (the provider's webhook is asynchronous). */
export async function waitForStatus(f: WebPayFixture, trxNo: number, status: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    if (order?.status === status) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`order ${trxNo} never reached status ${status}`);
}

export async function startCase(provider: RefundCase['provider']): Promise<RefundCase> {
  switch (provider) {
    case 'stripe': {
      const f = await startStripe();
      return {
        provider,
        f,
        appId: f.overseas.appId,
        currency: 'USD',
        async paidOrder(roleId, quantity = 2) {
          const { page } = await webViewSession(f, roleId);
          const { trxNo, sessionId } = await placeStripeOrder(f, page, quantity);
          await f.stripe.pay(sessionId);
          await waitForStatus(f, trxNo, 0);
          return { trxNo, total: 4.99 * quantity };
        },
        refundCalls: () =>
          f.stripe.requests.filter((r) => r.path === '/v1/refunds').map((r) => ({ key: r.idempotencyKey })),
        refuse: (code) => void (f.stripe.refuseRefunds = code),
        pending: (on) => void (f.stripe.refundsPending = on),
        settle: () => {
          for (const r of f.stripe.refunds.values()) if (r.status === 'pending') f.stripe.settleRefund(r.id);
        },
        webhookRefundIds: () => [...f.stripe.refundEvents.keys()],
        async replayRefundWebhooks() {
          const out: number[] = [];
          for (const events of f.stripe.refundEvents.values())
            for (const e of events) for (const d of await f.stripe.send(f.keys.secretKey, e)) out.push(d.status);
          return out;
        },
        close: () => f.close(),
      };
    }
    case 'paypal': {
      const f = await startPaypal();
      return {
        provider,
        f,
        appId: f.overseas.appId,
        currency: 'USD',
        async paidOrder(roleId, quantity = 2) {
          const { page } = await webViewSession(f, roleId);
          const { trxNo, orderId } = await placePaypalOrder(f, page, quantity);
          f.paypal.approve(orderId);
          await agePaypal(f, trxNo);
          await f.svc.services.paymentProviders.reconciliation.lateQuery(trxNo);
          await waitForStatus(f, trxNo, 0);
          return { trxNo, total: 4.99 * quantity };
        },
        refundCalls: () =>
          f.paypal.requests
            .filter((r) => r.method === 'POST' && /^\/v2\/payments\/captures\/[A-Z0-9]+\/refund$/.test(r.path))
            .map((r) => ({ key: r.requestId })),
        refuse: (code) => void (f.paypal.refuseRefunds = code),
        pending: (on) => void (f.paypal.refundsPending = on),
        settle: () => {
          for (const [id, r] of f.paypal.refunds) if (r.refund.status === 'PENDING') f.paypal.settleRefund(id);
        },
        // The fake's API refunds send no webhook (its Dashboard refunds do: paypal.refunds.test.ts).
        replayRefundWebhooks: async () => [],
        webhookRefundIds: () => [],
        close: () => f.close(),
      };
    }
    case 'alipay': {
      const f = await startAlipay();
      return {
        provider,
        f,
        appId: f.mainland.appId,
        currency: 'CNY',
        async paidOrder(roleId, quantity = 2) {
          const { page } = await mainlandSession(f, roleId);
          const { trxNo, url } = await placeAlipayOrder(f, page, quantity);
          await f.alipay.pay(await reachCashier(f, url));
          await waitForStatus(f, trxNo, 0);
          return { trxNo, total: 6 * quantity };
        },
        refundCalls: () =>
          f.alipay.requests
            .filter((r) => r.method === 'alipay.trade.refund')
            .map((r) => ({ key: r.biz?.out_request_no ?? null })),
        refuse: (code) => void (f.alipay.refuseRefunds = code),
        // Alipay answers a refund at once (fund_change), or refuses it: it has no pending state to hold.
        pending: () => {},
        settle: () => {},
        webhookRefundIds: () => [...f.alipay.refundNotifies.values()].map((p) => `${p.trade_no}:${p.out_biz_no}`),
        async replayRefundWebhooks() {
          const out: number[] = [];
          for (const [no, params] of f.alipay.refundNotifies) {
            const trade = [...f.alipay.trades.values()].find((t) =>
              [...f.alipay.refunds.values()].some((r) => r.outRequestNo === no && r.outTradeNo === t.outTradeNo),
            )!;
            out.push((await f.alipay.post(trade.notifyUrl!, params)).status);
          }
          return out;
        },
        close: () => f.close(),
      };
    }
    case 'wechatpay': {
      const f = await startWechatpay();
      return {
        provider,
        f,
        appId: f.mainland.appId,
        currency: 'CNY',
        async paidOrder(roleId, quantity = 2) {
          const { page } = await mainlandSession(f, roleId);
          const { trxNo, outTradeNo } = await placeWechatOrder(f, page, 'desktop', quantity);
          await f.wechat.pay(outTradeNo);
          await waitForStatus(f, trxNo, 0);
          return { trxNo, total: 6 * quantity };
        },
        refundCalls: () =>
          f.wechat.requests
            .filter((r) => r.method === 'POST' && r.path === '/v3/refund/domestic/refunds')
            .map((r) => ({ key: r.body?.out_refund_no ?? null })),
        refuse: (code) => void (f.wechat.refuseRefunds = code),
        pending: (on) => void (f.wechat.refundsPending = on),
        settle: () => {
          for (const r of f.wechat.refunds.values())
            if (r.status === 'PROCESSING') f.wechat.settleRefund(f.merchant.mchId, r.out_refund_no);
        },
        webhookRefundIds: () =>
          [...f.wechat.refunds.values()]
            .filter((r) => f.wechat.refundEvents.has(r.out_refund_no))
            .map((r) => r.refund_id),
        async replayRefundWebhooks() {
          const out: number[] = [];
          for (const r of f.wechat.refunds.values()) {
            const event = f.wechat.refundEvents.get(r.out_refund_no);
            if (event)
              out.push((await f.wechat.send(f.wechat.transactions.get(r.out_trade_no)!.notify_url, event)).status);
          }
          return out;
        },
        close: () => f.close(),
      };
    }
  }
}

/** The 2.5 refund notifications the game received naming `trxNo` as the original, each verified (5.3). */
export function refundNotesOf(f: WebPayFixture, trxNo: number): any[] {
  return f.game.requests
    .filter((r) => r.url === '/cb')
    .map((r) => ({ body: JSON.parse(r.body), verified: r.verified }))
    .filter((n) => n.body.originalTrxNo === trxNo)
    .map((n) => {
      assert.ok(n.verified, 'the 2.5 is signed by the platform and verifies');
      return n.body;
    });
}

/** The rows of refund_requests and orders, to show a refused request wrote nothing. */
export async function refundRows(f: WebPayFixture): Promise<number> {
  const row = await f.svc.services.database.db
    .selectFrom('refund_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
