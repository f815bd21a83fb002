import crypto from 'node:crypto';
import { MAX_CHANNEL } from '../../enums.js';
import type { OrderRow } from '../../orders.repository.js';
import type { PaymentChannelAdapter, PaymentStart } from './channel.js';

/** The sandbox's transaction numbers start with this (so its hosted step never pays another channel's order). */
export const SANDBOX_BANK_PREFIX = 'sandbox-';

/** Whether the sandbox opened this order's payment (its bankTrxNo is the sandbox's). */
export const openedBySandbox = (bankTrxNo: string | null) => bankTrxNo?.startsWith(SANDBOX_BANK_PREFIX) ?? false;

/** The outcomes of the sandbox's hosted step (the web payment page's pay, fail and cancel buttons). */
export const SANDBOX_OUTCOMES = ['pay', 'fail', 'cancel'] as const;

/**
 * The sandbox channel (SANDBOX_PAYMENTS, never in production mode): stands in
 * for every channel of 2.7 so tests, demos and the web payment page can run
 * whole flows. Its step is `hosted`: the web payment page renders pay, fail and
 * cancel; for a game client, an operator call (admin API
 * `/admin/v1/sandbox/...` or the CLI) plays the part of the store or provider,
 * client-reported store fields included. Either way the result arrives later.
 */
export class SandboxChannel implements PaymentChannelAdapter {
  readonly name = 'sandbox';

  supports(channel: number): boolean {
    return Number.isInteger(channel) && channel >= 1 && channel <= MAX_CHANNEL;
  }

  async startPayment(order: OrderRow): Promise<PaymentStart> {
    return {
      bankTrxNo: `${SANDBOX_BANK_PREFIX}${crypto.randomBytes(8).toString('hex')}`,
      step: {
        kind: 'hosted',
        channel: 'sandbox',
        outcomes: [...SANDBOX_OUTCOMES],
        complete: `POST /admin/v1/sandbox/orders/${order.trx_no}/pay`,
      },
    };
  }
}
