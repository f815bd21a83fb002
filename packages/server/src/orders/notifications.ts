import type { ItemRow, OrderRow, SupplementRow } from './orders.repository.js';
import { minorToNumber } from './money.js';
import type { PaymentNotification, PendingSupplement, RefundNotification } from './notifications.schemas.js';

/** `attach` of 2.4: the echo of the client's game_server_id, game_role_id, game_ext; null when none was given. */
export function attachOf(order: OrderRow): PaymentNotification['attach'] {
  if (order.game_server_id === null && order.game_role_id === null && order.game_ext === null) return null;
  return {
    gameServerId: order.game_server_id ?? '',
    gameRoleId: order.game_role_id ?? '',
    gameExt: order.game_ext ?? '',
  };
}

export function productEntries(items: ItemRow[]): PaymentNotification['products'] {
  return items.map((it) => ({
    productCode: it.product_code,
    quantity: it.quantity,
    channelSkuCode: it.channel_sku_code,
  }));
}

/** The payment notification of 2.4 (trxType 0) for a succeeded order. `notifyId` is the outbox event id. */
export function paymentNotification(
  notifyId: number,
  notifyTime: number,
  order: OrderRow,
  items: ItemRow[],
): PaymentNotification {
  return {
    notifyId,
    notifyTime,
    appId: order.app_id,
    userId: order.user_id,
    trxNo: order.trx_no,
    trxType: 0,
    outTrxNo: order.out_trx_no,
    platform: order.platform,
    channel: order.channel,
    paymentType: order.payment_type,
    products: productEntries(items),
    currency: order.currency,
    region: order.region ?? 'DF',
    // Rule 7: the configured price, not what the user paid (that is clientAmount).
    clientAmount:
      order.client_amount_minor === null ? null : minorToNumber(order.client_amount_minor, order.client_currency!),
    clientCurrency: order.client_currency,
    clientRegion: order.client_region,
    totalAmount: minorToNumber(order.total_minor, order.currency),
    status: 0,
    successTime: order.success_time!,
    attach: attachOf(order),
    bankTrxNo: order.bank_trx_no,
  };
}

/** The refund notification of 2.5 (trxType 2): no outTrxNo, region or client fields; attach of the original (rule 2). */
export function refundNotification(
  notifyId: number,
  notifyTime: number,
  refund: OrderRow,
  items: ItemRow[],
): RefundNotification {
  return {
    notifyId,
    appId: refund.app_id,
    notifyTime,
    userId: refund.user_id,
    trxNo: refund.trx_no,
    originalTrxNo: refund.original_trx_no!,
    trxType: 2,
    platform: refund.platform,
    channel: refund.channel,
    paymentType: refund.payment_type,
    products: productEntries(items),
    currency: refund.currency,
    totalAmount: minorToNumber(refund.total_minor, refund.currency),
    status: 0,
    successTime: refund.success_time!,
    attach: attachOf(refund),
  };
}

/** An element of `data.list` of 4.5 (2.6). */
export function pendingSupplement(s: SupplementRow): PendingSupplement {
  return {
    tradeNo: s.refund_trx_no,
    productId: s.product_id,
    currency: s.currency,
    outTradeNo: s.out_trade_no,
    bankTradeNo: s.bank_trade_no,
    refundAmount: minorToNumber(s.refund_minor, s.currency),
    channelId: s.channel_id,
    channelType: s.channel_type,
    supplyStatus: 1,
    platform: s.platform,
  };
}
