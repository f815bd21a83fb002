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
  /** When the next attempt is due; while claimed, when the claim lapses. */
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
  last_error: string | null;
  /** Set while an instance holds the event (migration 0005); completion checks it. */
  claim_token: Generated<string | null>;
  /** When the event was declared dead (migration 0005). */
  dead_at: Generated<number | null>;
  /**
   * When the event should have been sent (migration 0023): set when it falls due (enqueue, retry, resend, recovery),
   * kept while it is claimed or handed back by a limit. The lag gauges measure from it. Null once finished.
   */
  due_at: Generated<number | null>;
  /** Why it was last handed back without an attempt: host | app_rate (migration 0023); cleared by an attempt. */
  held_reason: Generated<string | null>;
  /** W3C traceparent of the span that created it (migration 0023); null when tracing is off. */
  trace_parent: Generated<string | null>;
}

/** One attempt to deliver an event (migration 0005). */
export interface DeliveryAttemptsTable {
  attempt_id: Generated<number>;
  event_id: number;
  app_id: number;
  /** 1 for the first attempt. */
  attempt_no: number;
  started_at: number;
  url: string | null;
  http_status: number | null;
  latency_ms: number;
  /** delivered | http_status | timeout | network | refused | no_url */
  outcome: string;
  /** The first KB of the response body. */
  response_body: string | null;
  error: string | null;
}

export interface OutboxTables {
  outbox: OutboxTable;
  delivery_attempts: DeliveryAttemptsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends OutboxTables {}
}
