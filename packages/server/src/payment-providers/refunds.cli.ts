import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { Value } from '@sinclair/typebox/value';
import type { CliContext } from '../cli/context.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { parseId } from '../http/admin-query.js';
import type { OrderService } from '../orders/orders.service.js';
import { orderLine } from '../orders/orders.view.js';
import { refusalOf, type RefundRequests } from './refund-requests.js';
import { RefundBody, refundRequestView } from './refund-requests.schemas.js';

/** What `order refund` uses: the refund requests of web orders, and the sandbox channel for a store order. */
export interface OrderRefundCliServices {
  paymentProviders: { refunds: Pick<RefundRequests, 'isWebOrder' | 'request'> };
  orders: { sandboxEnabled: boolean; orders: Pick<OrderService, 'applyChannelEvent'> };
}

/** A refund's reason, as the admin API takes it (1-500 characters, no control characters). */
function checkReason(reason: unknown): string {
  if (typeof reason !== 'string' || !Value.Check(RefundBody.properties.reason, reason))
    throw invalidParameter('--reason', 'is required: 1-500 characters, no control characters');
  return reason;
}

/**
 * `order refund <trxNo>` (added under the orders' `order` command by the root): here, with the refund requests it
 * makes, so that the orders domain needs nothing of the providers.
 */
export function registerOrderRefundCommand(order: Command, ctx: CliContext<OrderRefundCliServices>): void {
  order
    .command('refund')
    .argument('<trxNo>')
    .description(
      'refund a web order through the provider that took it (--reason required; --amount for part of it), or a paid store order through the sandbox channel (SANDBOX_PAYMENTS only)',
    )
    .option('--reason <text>', 'why (required for a web order): kept with the refund')
    .option('--amount <decimal>', 'part of a web order, in its currency (default: all that remains)')
    .option('--key <idempotencyKey>', 'the same key again is the same refund (default: the amount and reason)')
    .option('--bank-refund-no <no>', 'the store refund number (sandbox)')
    .action(async (trxNo: string, o) => {
      await ctx.withServices(async (s) => {
        const no = parseId('trxNo', trxNo);
        if (await s.paymentProviders.refunds.isWebOrder(no)) {
          const { refund } = await s.paymentProviders.refunds.request({
            trxNo: no,
            ...(o.amount !== undefined ? { amount: o.amount } : {}),
            reason: checkReason(o.reason),
            idempotencyKey: o.key ?? null,
            requestedBy: `cli:${userInfo().username}`,
          });
          const refused = refusalOf(refund);
          if (refused) throw refused;
          const view = refundRequestView(refund);
          ctx.output(
            view,
            () =>
              `refund ${view.refundRequestId}  ${view.state}  ${view.amount} ${view.currency}  ${view.provider}${view.providerRefundId ? ` ${view.providerRefundId}` : ''}`,
          );
          return;
        }
        if (!s.orders.sandboxEnabled)
          throw new AppError(
            'SANDBOX_DISABLED',
            'set SANDBOX_PAYMENTS=true (never in production mode) to refund through the sandbox channel',
          );
        const refund = await s.orders.orders.applyChannelEvent({
          kind: 'refunded',
          trxNo: no,
          bankRefundNo: o.bankRefundNo ?? null,
        });
        ctx.output(refund, () => `refunded: ${orderLine(refund)}`);
      });
    });
}
