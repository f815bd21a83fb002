import crypto from 'node:crypto';
import { MAX_CHANNEL } from '../enums.js';
import type { OrderRow } from '../orders.repository.js';
import type { PaymentChannelAdapter, PaymentStart } from './channel.js';

/**
 * The sandbox channel (SANDBOX_PAYMENTS, never in production mode): stands in
 * for every channel of 2.7 so tests, demos and the web payment page can run
 * whole flows. Payments it opens are completed, failed or refunded by an
 * operator call (admin API `/admin/v1/sandbox/...` or the CLI), which plays
 * the part of the store or provider, client-reported store fields included.
 */
export class SandboxChannel implements PaymentChannelAdapter {
  readonly name = 'sandbox';

  supports(channel: number): boolean {
    return Number.isInteger(channel) && channel >= 1 && channel <= MAX_CHANNEL;
  }

  async startPayment(order: OrderRow): Promise<PaymentStart> {
    return {
      bankTrxNo: `sandbox-${crypto.randomBytes(8).toString('hex')}`,
      payment: {
        channel: 'sandbox',
        complete: `POST /admin/v1/sandbox/orders/${order.trx_no}/pay`,
      },
    };
  }
}
