import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { parseId as num } from '../http/admin-query.js';
import { addListOptions, windowAndPage } from '../cli/list-options.js';
import { orderDetails, type OrderDetailsDelivery, type OrderDetailsSources } from './order-details.js';
import { parseOrderQuery } from './orders.schemas.js';
import { orderLine as line } from './orders.view.js';
import type { PendingSupplementAdmin } from './refunds/refunds.js';
import type { ProductService } from './catalogue/products.js';

/** What the orders' commands use. */
export interface OrderCliServices {
  orders: OrderDetailsSources & { products: ProductService };
  delivery: OrderDetailsDelivery;
}

const supplementLine = (s: PendingSupplementAdmin) =>
  `tradeNo ${s.tradeNo}  ${s.supplyStatus === 1 ? 'pending' : 'supplemented'}  app ${s.appId}  user ${s.userId}  ${s.refundAmount} ${s.currency}  ` +
  `productId ${s.productId}  original ${s.originalTrxNo}`;

/**
 * Operator commands of the orders domain: find, show, supplements, products. Answers the `order` command, under which
 * the root adds `order refund` (payment-providers' CLI: a web order's refund goes through its provider).
 */
export function registerOrderCommands(program: Command, ctx: CliContext<OrderCliServices>): Command {
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
    await ctx.printList('orders', (s) => s.orders.orders.find(filter), line, 'no orders');
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
    .command('supplements')
    .description('supplement orders after store refunds (default: pending)')
    .option('--app <appId>')
    .option('--user <userId>')
    .option('--all', 'supplemented ones too', false)
    .action((o) =>
      ctx.printList(
        'supplements',
        (s) =>
          s.orders.refunds.listSupplements({
            ...(o.app ? { appId: num('app', o.app) } : {}),
            ...(o.user ? { userId: o.user } : {}),
            ...(o.all ? {} : { supplyStatus: 1 }),
            limit: 500,
          }),
        supplementLine,
        'no supplements',
      ),
    );

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
  return order;
}
