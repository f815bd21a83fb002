import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { recordAttempts, type NewAttempt } from './attempts.js';

/** The result of one attempt, to be written back: the attempt log row and the event's new state. */
export interface Outcome {
  eventId: number;
  claimToken: string;
  attempt: NewAttempt;
  /** delivered; pending: due again at `at`; dead: the schedule is used up. */
  state: 'delivered' | 'pending' | 'dead';
  /** delivered_at, next_attempt_at or dead_at, by state. */
  at: number;
  lastError: string | null;
}

/**
 * Writes attempts and the events' new states, all or nothing. An event whose
 * claim lapsed and was taken by another instance is left to that one (its
 * attempt is still logged). On PostgreSQL this is one statement for the whole
 * batch, whatever its size: the rows travel as arrays, so the SQL text (and
 * its plan) is the same every time and there is one round trip, not four.
 */
export async function writeOutcomes(db: Kysely<Tables>, dialect: Dialect, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  if (dialect.name === 'postgres') return writeOutcomesPg(db, outcomes);
  await db.transaction().execute(async (trx) => {
    await recordAttempts(
      trx,
      outcomes.map((o) => o.attempt),
    );
    for (const o of outcomes) {
      await trx
        .updateTable('outbox')
        .set({
          attempts: sql`attempts + 1`,
          claim_token: null,
          held_reason: null,
          last_error: o.lastError,
          ...(o.state === 'delivered'
            ? { state: 'delivered', delivered_at: o.at }
            : o.state === 'dead'
              ? { state: 'dead', dead_at: o.at }
              : { next_attempt_at: o.at, due_at: o.at }),
        })
        .where('event_id', '=', o.eventId)
        .where('claim_token', '=', o.claimToken)
        .execute();
    }
  });
}

async function writeOutcomesPg(db: Kysely<Tables>, outcomes: Outcome[]): Promise<void> {
  const a = outcomes.map((o) => o.attempt);
  // A data-modifying WITH runs to completion even though nothing reads it; the statement is atomic.
  await sql`
    with f as (
      select * from unnest(${outcomes.map((o) => o.eventId)}::bigint[], ${outcomes.map((o) => o.claimToken)}::text[],
        ${outcomes.map((o) => o.state)}::text[], ${outcomes.map((o) => o.at)}::bigint[], ${outcomes.map((o) => o.lastError)}::text[])
        as f(event_id, claim_token, state, at, last_error)
    ), u as (
      update outbox o set
        state = f.state,
        attempts = o.attempts + 1,
        claim_token = null,
        held_reason = null,
        last_error = f.last_error,
        delivered_at = case when f.state = 'delivered' then f.at else o.delivered_at end,
        dead_at = case when f.state = 'dead' then f.at else o.dead_at end,
        next_attempt_at = case when f.state = 'pending' then f.at else o.next_attempt_at end,
        due_at = case when f.state = 'pending' then f.at else o.due_at end
      from f
      where o.event_id = f.event_id and o.claim_token = f.claim_token
    )
    insert into delivery_attempts (event_id, app_id, attempt_no, started_at, url, http_status, latency_ms, outcome, response_body, error)
    select * from unnest(${a.map((x) => x.event_id)}::bigint[], ${a.map((x) => x.app_id)}::bigint[], ${a.map((x) => x.attempt_no)}::int[],
      ${a.map((x) => x.started_at)}::bigint[], ${a.map((x) => x.url ?? null)}::text[], ${a.map((x) => x.http_status ?? null)}::int[],
      ${a.map((x) => x.latency_ms)}::int[], ${a.map((x) => x.outcome)}::text[], ${a.map((x) => x.response_body ?? null)}::text[],
      ${a.map((x) => x.error ?? null)}::text[])`.execute(db);
}
