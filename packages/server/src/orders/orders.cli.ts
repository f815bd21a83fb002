import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { Value } from '@sinclair/typebox/value';
import { refusalOf } from '../payment-providers/refund-requests.js';
import { RefundBody, refundRequestView } from '../payment-providers/refund-requests.schemas.js';
import type { CliContext, LegacyServices } from '../cli/context.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { addListOptions, windowAndPage } from '../cli/list-options.js';
import { orderDetails } from './order-details.js';
import { parseOrderQuery } from './orders.schemas.js';
import type { Order } from './orders.view.js';
import type { PendingSupplementAdmin } from './refunds/refunds.js';

const ID = /^[0-9]{1,15}$/;

/** A refund's reason, as the admin API takes it (1-500 characters, no control characters). */
function checkReason(reason: unknown): string {
  if (typeof reason !== 'string' || !Value.Check(RefundBody.properties.reason, reason))
    throw invalidParameter('--reason', 'is required: 1-500 characters, no control characters');
  return reason;
}

function num(field: string, value: string): number {
  if (!ID.test(value)) throw invalidParameter(field, 'must be a number');
  return Number(value);
}

const line = (o: Order) =>
  `trxNo ${o.trxNo}  trxType ${o.trxType}  status ${o.status} (${o.statusName})  app ${o.appId}  user ${o.userId}  ` +
  `${o.totalAmount} ${o.currency}  channel ${o.channel}  outTrxNo ${o.outTrxNo ?? '-'}${o.originalTrxNo ? `  original ${o.originalTrxNo}` : ''}` +
  `${o.attach ? `  role ${o.attach.gameRoleId}@${o.attach.gameServerId}` : ''}`;

const supplementLine = (s: PendingSupplementAdmin) =>
  `tradeNo ${s.tradeNo}  ${s.supplyStatus === 1 ? 'pending' : 'supplemented'}  app ${s.appId}  user ${s.userId}  ${s.refundAmount} ${s.currency}  ` +
  `productId ${s.productId}  original ${s.originalTrxNo}`;

/** Operator commands of the orders domain: find, show, refund (sandbox), supplements, products. */
export function registerOrderCommands(program: Command, ctx: CliContext<LegacyServices>): void {
  const order = program.command('order').description('orders, refunds and supplements (2.4-2.7)');

  addListOptions(
    order
      .command('find')
      .description('find orders, newest first')
      .option('--trx-no <trxNo>')
      .option('--out-trx-no <outTrxNo>')
      .option('--app <appId>')
      .option('--user <userId>')
      .option('--role <roleId>')
      .option('--status <status>', '2.7: 0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled')
      .option('--trx-type <trxType>', '0 payment, 1 supplement payment, 2 refund'),
    {
      window: ['created at or after (ISO 8601 or Unix ms)', 'created before'],
      before: ['<trxNo>', 'page: orders with a smaller trxNo'],
    },
  ).action(async (o) => {
    const filter = parseOrderQuery({
      trxNo: o.trxNo,
      outTrxNo: o.outTrxNo,
      appId: o.app,
      userId: o.user,
      roleId: o.role,
      status: o.status,
      trxType: o.trxType,
      ...windowAndPage(o),
    });
    await ctx.withServices(async (s) => {
      const orders = await s.orders.orders.find(filter);
      ctx.output({ orders }, () => orders.map(line).join('\n') || 'no orders');
    });
  });

  order
    .command('show')
    .argument('<trxNo>')
    .description('an order with its status history, refunds, supplement and notifications')
    .action((trxNo: string) =>
      ctx.print(
        (s) => orderDetails({ ...s.orders, delivery: s.delivery }, num('trxNo', trxNo)),
        (d) =>
          [
            line(d.order),
            ...d.statusHistory.map(
              (h) =>
                `  ${h.at}  ${h.fromStatus === null ? 'new' : h.fromStatus} -> ${h.status} (${h.statusName})${h.reason ? `  ${h.reason}` : ''}`,
            ),
            // Every refund order (a web payment may be refunded in parts), a web one with its kind and provider.
            ...d.refunds.map((r) => {
              const web = d.webRefunds.find((w) => w.refundTrxNo === r.trxNo);
              return `refund: ${line(r)}${web ? `  ${web.kind} at ${web.provider} (${web.providerRefundId})` : ''}`;
            }),
            d.supplement ? `supplement: ${supplementLine(d.supplement)}` : '',
            ...d.notifications.map(
              (n) =>
                `notification ${n.notifyId} ${n.type} ${n.state} attempts ${n.attempts}${n.lastError ? ` (${n.lastError})` : ''}`,
            ),
          ]
            .filter(Boolean)
            .join('\n'),
      ),
    );

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
        const no = num('trxNo', trxNo);
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
        ctx.output(refund, () => `refunded: ${line(refund)}`);
      });
    });

  order
    .command('supplements')
    .description('supplement orders after store refunds (default: pending)')
    .option('--app <appId>')
    .option('--user <userId>')
    .option('--all', 'supplemented ones too', false)
    .action(async (o) => {
      await ctx.withServices(async (s) => {
        const supplements = await s.orders.refunds.listSupplements({
          ...(o.app ? { appId: num('app', o.app) } : {}),
          ...(o.user ? { userId: o.user } : {}),
          ...(o.all ? {} : { supplyStatus: 1 }),
          limit: 500,
        });
        ctx.output({ supplements }, () => supplements.map(supplementLine).join('\n') || 'no supplements');
      });
    });

  const product = program.command('product').description('products and prices of an app');
  product
    .command('add')
    .requiredOption('--app <appId>')
    .requiredOption('--code <productCode>')
    .requiredOption('--name <name>')
    .requiredOption('--price <decimal>', 'unit price, e.g. 6.99')
    .requiredOption('--currency <ISO 4217>')
    .option('--ios-sku <sku>', 'iOS store SKU (channel 1)')
    .option('--android-sku <sku>', 'Android store SKU (channel 2)')
    .action((o) =>
      ctx.print(
        (s) =>
          s.orders.products.create(num('app', o.app), {
            productCode: o.code,
            name: o.name,
            price: o.price,
            currency: o.currency,
            channelSkus: { ...(o.iosSku ? { 1: o.iosSku } : {}), ...(o.androidSku ? { 2: o.androidSku } : {}) },
          }),
        (created) => `${created.productCode}  ${created.name}  ${created.price} ${created.currency}`,
      ),
    );
  product
    .command('list')
    .requiredOption('--app <appId>')
    .action(async (o) => {
      await ctx.withServices(async (s) => {
        const products = await s.orders.products.list(num('app', o.app));
        ctx.output(
          { products },
          () =>
            products.map((p) => `${p.productCode}  ${p.name}  ${p.price} ${p.currency}  ${p.status}`).join('\n') ||
            'no products',
        );
      });
    });
}
