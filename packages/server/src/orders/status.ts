import { AppError } from '../errors/app-error.js';
import { OrderStatus } from './enums.js';

/**
 * The order status machine. The spec lists the statuses (2.7) but not the
 * transitions (3: "not shown"); these are ours (docs/orders.md):
 *
 *   1 created ──payment opened at the channel──> 2 awaiting payment ──paid──> 0 succeeded
 *     │  └──channel refused to open it──> 3 failed <──payment failed──┤
 *     └──cancel──> 4 cancelled <──cancel──────────────────────────────┘
 *
 * 0, 3 and 4 are final: a refund never changes the paid order, it is an order
 * of its own (trxType 2) that refers to it (2.5 originalTrxNo).
 */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  [OrderStatus.CREATED]: [OrderStatus.AWAITING_PAYMENT, OrderStatus.FAILED, OrderStatus.CANCELLED],
  [OrderStatus.AWAITING_PAYMENT]: [OrderStatus.SUCCEEDED, OrderStatus.FAILED, OrderStatus.CANCELLED],
  [OrderStatus.SUCCEEDED]: [],
  [OrderStatus.FAILED]: [],
  [OrderStatus.CANCELLED]: [],
};

export const STATUS_NAMES: Record<number, string> = {
  0: 'succeeded',
  1: 'created',
  2: 'awaiting payment',
  3: 'failed',
  4: 'cancelled',
};

export function canTransition(from: number, to: number): boolean {
  return (NEXT[from as OrderStatus] ?? []).includes(to as OrderStatus);
}

/** Throws ORDER_STATE (40910) naming both statuses when `from -> to` is not a transition. */
export function assertTransition(trxNo: number, from: number, to: number): void {
  if (!canTransition(from, to)) {
    throw new AppError(
      'ORDER_STATE',
      `order ${trxNo} is ${from} (${STATUS_NAMES[from]}) and cannot become ${to} (${STATUS_NAMES[to]})`,
      {
        data: { trxNo, status: from, requested: to },
      },
    );
  }
}

export function isFinal(status: number): boolean {
  return (NEXT[status as OrderStatus] ?? []).length === 0;
}
