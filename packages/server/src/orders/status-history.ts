import type { Selectable } from 'kysely';
import { Type, type Static } from '@sinclair/typebox';
import type { OrderStatusChangesTable } from './orders.tables.js';
import { STATUS_NAMES } from './status.js';

/**
 * The status history of orders (migration 0009): one row for each status an
 * order took (2.7), written by the orders store (orders.repository.ts
 * recordStatusChanges, from its own functions and placement-writes.ts) when it
 * creates an order or changes its status, in the same transaction as the
 * change. Nothing else writes `orders.status`, so the history is complete from
 * 0009 on. This file is its shape: the rows and the operator's view of them.
 */
export type StatusChangeRow = Omit<OrderStatusChangesTable, 'change_id'>;

export const StatusChange = Type.Object({
  fromStatus: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The status before (2.7); null: the order was created with `status`.',
  }),
  status: Type.Integer({ description: '2.7: 0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled.' }),
  statusName: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why, when known: the failure or cancellation reason.',
  }),
  at: Type.String({ format: 'date-time' }),
});
export type StatusChange = Static<typeof StatusChange>;

/** A created order's first row: from nothing to the status it was created with. */
export function creation(row: {
  trx_no: number;
  status: number;
  failure_reason: string | null;
  created_at: number;
}): StatusChangeRow {
  return {
    trx_no: row.trx_no,
    from_status: null,
    to_status: row.status,
    reason: row.failure_reason,
    at: row.created_at,
  };
}

/** A history row as the operator sees it. */
export function toStatusChange(r: Selectable<OrderStatusChangesTable>): StatusChange {
  return {
    fromStatus: r.from_status,
    status: r.to_status,
    statusName: STATUS_NAMES[r.to_status] ?? 'unknown',
    reason: r.reason,
    at: new Date(Number(r.at)).toISOString(),
  };
}
