import type { Generated } from 'kysely';

/**
 * The outbox (issue: delivery engine): one row per event for a game, written
 * in the same transaction as the business change that caused it.
 */
export interface OutboxTable {
  /** Also the `notifyId` of payment and refund notifications. */
  event_id: Generated<number>;
  app_id: number;
  /** payment | refund | cancellation | consumption | test */
  type: string;
  /** Which of the app's URLs receives it: callback (4.7 map by server_id), cancellation, partner. */
  target: string;
  /** serverId of the order, for the callback map of 4.7; null falls back to `default`. */
  server_id: string | null;
  /** The JSON body, byte for byte what is signed and sent on every attempt. */
  body: string;
  /** pending | delivered | dead */
  state: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
  last_error: string | null;
}

export interface OutboxTables {
  outbox: OutboxTable;
}
