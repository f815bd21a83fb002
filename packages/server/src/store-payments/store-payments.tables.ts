import type { Generated } from 'kysely';

/** Row types of migration 0014 (store-payments/). Times are Unix milliseconds; booleans 0/1. */
export interface StoreTransactionsTable {
  store: 'apple' | 'google';
  /** Apple `transactionId`; Google the purchase token. Unique per store: one pays at most once. */
  store_key: string;
  app_id: number;
  trx_no: number;
  /** Apple `transactionId`, Google `orderId` (the order's bankTrxNo). */
  bank_trx_no: string;
  product_id: string;
  /** Google: acknowledged to the store (1) or still to do (0); Apple always 1. */
  acknowledged: number;
  /** When a store refund of this transaction was applied. */
  refunded_at: number | null;
  created_at: number;
}

export interface StoreMessagesTable {
  message_id: Generated<number>;
  app_id: number;
  store: 'apple' | 'google';
  /**
   * push: the store's notification; reconcile: found by the periodic poll; client: a purchase a player submitted
   * that was refused for revocation, account binding or a malformed store answer (issue 27).
   */
  source: 'push' | 'reconcile' | 'client';
  notification_id: string | null;
  /** notification_id of the delivery that took effect (unique per store and app); null for replays and refusals. */
  dedup_key: string | null;
  type: string | null;
  outcome: StoreMessageOutcome;
  error_code: string | null;
  trx_no: number | null;
  received_at: number;
  excerpt: string | null;
}

export type StoreMessageOutcome = 'applied' | 'duplicate' | 'ignored' | 'refused';

export interface StoreCursorsTable {
  app_id: number;
  store: 'apple' | 'google';
  /** The reconciliation's next "since" (ms). */
  since: number;
  /** The instance polling this app and store holds it until then. */
  lease_until: number;
  updated_at: number;
}

/** A refund or void reported before any order knew its transaction (migration 0024): refuses the later submission. */
export interface StoreRevocationsTable {
  store: 'apple' | 'google';
  /** Apple transactionId / Google purchase token (the orderId when the store gave no token). */
  store_key: string;
  app_id: number;
  /** Apple transactionId / Google orderId. */
  bank_trx_no: string | null;
  source: 'push' | 'reconcile';
  created_at: number;
}

/**
 * A store key's lock row (migration 0030): a submission's payment and a refund of the same key take it (an upsert) in
 * the transaction that decides, so a refund racing the submission is seen by one of them (docs/stores.md).
 */
export interface StoreKeyLocksTable {
  store: 'apple' | 'google';
  /** Apple transactionId / Google purchase token or orderId. */
  store_key: string;
  locked_at: number;
}

/** An Apple CONSUMPTION_REQUEST and what was done with it (migration 0024). */
export interface StoreConsumptionRequestsTable {
  request_id: Generated<number>;
  app_id: number;
  transaction_id: string;
  trx_no: number | null;
  /** Apple consumptionRequestReason. */
  reason: string | null;
  /** queued (in the outbox) | sent | skipped_no_consent | unknown_transaction | expired | failed */
  state: string;
  event_id: number | null;
  /** The ConsumptionRequest body sent (JSON). */
  body: string | null;
  requested_at: number;
  /** Apple's 12-hour window closes then. */
  deadline_at: number;
}

export interface StorePaymentsTables {
  store_revocations: StoreRevocationsTable;
  store_key_locks: StoreKeyLocksTable;
  store_consumption_requests: StoreConsumptionRequestsTable;
  store_transactions: StoreTransactionsTable;
  store_messages: StoreMessagesTable;
  store_cursors: StoreCursorsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends StorePaymentsTables {}
}
