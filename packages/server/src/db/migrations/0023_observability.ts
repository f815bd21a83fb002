import { sql, type Kysely } from 'kysely';

// 0023: what the person on call sees (issue 30).
// - outbox.due_at: when the event should have been sent: set when it falls due (enqueue, a retry scheduled, a resend
//   or recovery) and kept while it is claimed or handed back by a limit (next_attempt_at moves then; due_at does
//   not), so the lag gauge measures how long an event has waited since it was due, whatever held it back.
// - outbox.held_reason: why the event was last handed back without an attempt (host: its destination host had
//   DELIVERY_HOST_CONCURRENCY sends in flight and a full queue; app_rate: DELIVERY_APP_RATE), cleared by its next
//   attempt; null otherwise. The gauge of held-back events counts it.
// - outbox.trace_parent and orders.trace_parent: the W3C traceparent of the span that created the event (the
//   delivery attempt's span is its child) and of the order's placement (the payment notification joins that trace);
//   null when tracing is off.
// No new index: the gauges read the pending events in the one aggregate that already counts them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('due_at', 'bigint').execute();
  await db.schema.alterTable('outbox').addColumn('held_reason', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('trace_parent', 'text').execute();
  await db.schema.alterTable('orders').addColumn('trace_parent', 'text').execute();
  // A pending event is due since its next attempt (a claimed one: its lease is all that is known; close enough).
  await sql`update outbox set due_at = next_attempt_at where state = 'pending'`.execute(db);
}
