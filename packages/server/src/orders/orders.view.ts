import { Type, type Static } from '@sinclair/typebox';
import type { ItemRow, OrderRow } from './orders.repository.js';
import { minorToNumber } from './money.js';
import { Attach, ProductEntry } from './notifications.schemas.js';
import { attachOf, productEntries } from './notifications.js';
import { STATUS_NAMES } from './status.js';

/** An order as the admin API, the CLI and the client API show it. */
export const Order = Type.Object(
  {
    trxNo: Type.Integer(),
    trxType: Type.Integer({ description: '0 payment, 1 order supplement, 2 refund (2.7).' }),
    appId: Type.Integer(),
    userId: Type.String(),
    outTrxNo: Type.Union([Type.String(), Type.Null()]),
    originalTrxNo: Type.Union([Type.Integer(), Type.Null()]),
    status: Type.Integer({ description: '0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled (2.7).' }),
    statusName: Type.String(),
    platform: Type.Integer(),
    channel: Type.Integer(),
    paymentType: Type.Integer(),
    products: Type.Array(ProductEntry),
    currency: Type.String(),
    totalAmount: Type.Number(),
    region: Type.Union([Type.String(), Type.Null()]),
    clientAmount: Type.Union([Type.Number(), Type.Null()]),
    clientCurrency: Type.Union([Type.String(), Type.Null()]),
    clientRegion: Type.Union([Type.String(), Type.Null()]),
    bankTrxNo: Type.Union([Type.String(), Type.Null()]),
    attach: Type.Union([Attach, Type.Null()]),
    origin: Type.String({ description: 'client | web_page | supplement | refund' }),
    mergedReceipts: Type.Boolean(),
    notifyId: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Outbox event of the payment or refund notification.',
    }),
    failureReason: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    successTime: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Order', title: 'Order' },
);
export type Order = Static<typeof Order>;

export function toOrder(o: OrderRow, items: ItemRow[]): Order {
  return {
    trxNo: o.trx_no,
    trxType: o.trx_type,
    appId: o.app_id,
    userId: o.user_id,
    outTrxNo: o.out_trx_no,
    originalTrxNo: o.original_trx_no,
    status: o.status,
    statusName: STATUS_NAMES[o.status] ?? 'unknown',
    platform: o.platform,
    channel: o.channel,
    paymentType: o.payment_type,
    products: productEntries(items),
    currency: o.currency,
    totalAmount: minorToNumber(o.total_minor, o.currency),
    region: o.region,
    clientAmount: o.client_amount_minor === null ? null : minorToNumber(o.client_amount_minor, o.client_currency!),
    clientCurrency: o.client_currency,
    clientRegion: o.client_region,
    bankTrxNo: o.bank_trx_no,
    attach: attachOf(o),
    origin: o.origin,
    mergedReceipts: o.merged_receipts === 1,
    notifyId: o.notify_event_id,
    failureReason: o.failure_reason,
    createdAt: new Date(o.created_at).toISOString(),
    successTime: o.success_time,
  };
}

/** An order on one line of the command line's text output. */
export const orderLine = (o: Order) =>
  `trxNo ${o.trxNo}  trxType ${o.trxType}  status ${o.status} (${o.statusName})  app ${o.appId}  user ${o.userId}  ` +
  `${o.totalAmount} ${o.currency}  channel ${o.channel}  outTrxNo ${o.outTrxNo ?? '-'}${o.originalTrxNo ? `  original ${o.originalTrxNo}` : ''}` +
  `${o.attach ? `  role ${o.attach.gameRoleId}@${o.attach.gameServerId}` : ''}`;
