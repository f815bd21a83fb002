import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { Batcher } from '../../db/batcher.js';
import type { Dialect } from '../../db/dialect.js';
import type { RelaxedWriter } from '../../db/database.js';
import type { PlacementClaimsTable } from '../orders.tables.js';

/** A client orderId of an app (2.4 rule 5: orders are deduplicated by appId + outTrxNo). */
export interface ClaimKey {
  appId: number;
  outTrxNo: string;
}

/** A claim as a placement reads it. */
export type ClaimRow = Pick<
  PlacementClaimsTable,
  'request_digest' | 'attempt' | 'lease_until' | 'settled_attempt' | 'outcome'
>;

/** The order holding an orderId: what a placement needs to answer it. */
export interface OrderRef {
  trx_no: number;
  request_digest: string | null;
}

/** What the database holds for an orderId: its order, else its claim (either may be missing). */
export interface Look {
  order: OrderRef | null;
  claim: ClaimRow | null;
}

export interface Claimed extends Look {
  /** This placement inserted the claim: it holds attempt 1 and asks the game. */
  claimed: boolean;
}

interface ClaimRequest extends ClaimKey {
  digest: string;
  now: number;
  leaseUntil: number;
}

type FoundRow = LookRow & { idx: number; claimed: boolean | number };

type LookRow = {
  trx_no: number | null;
  order_digest: string | null;
  request_digest: string | null;
  attempt: number | null;
  lease_until: number | null;
  settled_attempt: number | null;
  outcome: string | null;
};

/**
 * Every statement on `placement_claims` (migration 0011), used by
 * placement-once.ts. The claim of a placement is one statement that also
 * answers what placement looked up before claims existed (the order of the
 * orderId), batched across concurrent placements like that lookup was
 * (db/batcher.ts): it inserts the claim unless an order or a claim already
 * holds the orderId, and reads both. On PostgreSQL that is one statement (a
 * data-modifying CTE); SQLite, which has none, runs the INSERT and then the
 * SELECT on its one connection.
 *
 * The claim is written without waiting for the disk (SQLite
 * `synchronous=NORMAL` for the INSERT, PostgreSQL `synchronous_commit=off` for
 * the statement's transaction), as one-time nonces are: it is on the path of
 * every client placement, and a power failure that lost the claims of the last
 * instants would only let a repeat of those placements ask the game again;
 * the order's unique key still allows one order. Other instances see a claim
 * as soon as it is committed either way.
 */
export class PlacementClaims {
  readonly #claim: Batcher<ClaimRequest, Claimed>;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
    private readonly relaxed: RelaxedWriter,
  ) {
    this.#claim = new Batcher((batch) => this.#claimAll(batch), {
      maxBatch: 200,
      maxInFlight: dialect.batchesInFlight(),
    });
  }

  /** Claims the orderId for attempt 1 unless an order or a claim holds it; answers the order and the claim found. */
  claim(key: ClaimKey, digest: string, now: number, leaseUntil: number): Promise<Claimed> {
    return this.#claim.submit({ ...key, digest, now, leaseUntil });
  }

  /** The order and the claim of an orderId, read only (a placement waiting for another instance's attempt). */
  async look(key: ClaimKey): Promise<Look> {
    const { rows } = await sql<LookRow>`
      select o.trx_no, o.request_digest as order_digest,
        c.request_digest, c.attempt, c.lease_until, c.settled_attempt, c.outcome
      from (select cast(${key.appId} as bigint) as app_id, cast(${key.outTrxNo} as text) as out_trx_no) k
      left join orders o on o.app_id = k.app_id and o.out_trx_no = k.out_trx_no
      left join placement_claims c on c.app_id = k.app_id and c.out_trx_no = k.out_trx_no`.execute(this.db);
    return lookOf(rows[0]);
  }

  /**
   * Compare-and-set: the next attempt, for a placement that found attempt
   * `seen` settled (it failed) or past its lease (its holder died). False when
   * another placement took it first or the holder settled meanwhile.
   */
  async takeOver(key: ClaimKey, seen: number, digest: string, now: number, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('placement_claims')
      .set((eb) => ({
        attempt: eb('attempt', '+', 1),
        request_digest: digest,
        claimed_at: now,
        lease_until: leaseUntil,
      }))
      .where('app_id', '=', key.appId)
      .where('out_trx_no', '=', key.outTrxNo)
      .where('attempt', '=', seen)
      .where((eb) => eb.or([eb('settled_attempt', '=', eb.ref('attempt')), eb('lease_until', '<=', now)]))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  /**
   * Attempt `attempt` ended without an order: records why (`outcome`, JSON),
   * or null when it has nothing to share. A no-op when the attempt was taken
   * over meanwhile (its lease ran out).
   */
  async settle(key: ClaimKey, attempt: number, outcome: string | null, now: number): Promise<void> {
    await this.db
      .updateTable('placement_claims')
      .set({ settled_attempt: attempt, outcome, settled_at: now })
      .where('app_id', '=', key.appId)
      .where('out_trx_no', '=', key.outTrxNo)
      .where('attempt', '=', attempt)
      .execute();
  }

  /** Deletes the claims whose lease ended before `before`; answers how many. */
  async purge(before: number): Promise<number> {
    const result = await this.db.deleteFrom('placement_claims').where('lease_until', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async #claimAll(batch: ClaimRequest[]): Promise<Claimed[]> {
    // The same orderId twice in one batch (placement-once.ts sends one placement per orderId and instance, so only
    // by accident): the first is claimed, the others find nothing this time and look again.
    const first = new Map<string, number>();
    batch.forEach((r, i) => {
      if (!first.has(keyOf(r))) first.set(keyOf(r), i);
    });
    // One SQL text whatever the batch's size (its rows are one JSON parameter), so SQLite's statements stay prepared.
    const json = JSON.stringify(
      [...first.values()].map((i) => {
        const r = batch[i]!;
        return {
          idx: i,
          app_id: r.appId,
          out_trx_no: r.outTrxNo,
          digest: r.digest,
          claimed_at: r.now,
          lease_until: r.leaseUntil,
        };
      }),
    );
    const keys =
      this.dialect.name === 'postgres'
        ? // set_config(.., true) lasts until the statement's own transaction commits, asynchronously.
          sql`k as (select t.* from json_to_recordset(cast(${json} as json))
          as t(idx integer, app_id bigint, out_trx_no text, digest text, claimed_at bigint, lease_until bigint),
          (select set_config('synchronous_commit', 'off', true)) relaxed)`
        : sql`k as (select value ->> 'idx' as idx, value ->> 'app_id' as app_id, value ->> 'out_trx_no' as out_trx_no,
          value ->> 'digest' as digest, value ->> 'claimed_at' as claimed_at, value ->> 'lease_until' as lease_until from json_each(${json}))`;
    const insert = sql`
      insert into placement_claims (app_id, out_trx_no, request_digest, attempt, claimed_at, lease_until)
      select app_id, out_trx_no, digest, 1, claimed_at, lease_until from k
      where not exists (select 1 from orders o where o.app_id = k.app_id and o.out_trx_no = k.out_trx_no)
      on conflict (app_id, out_trx_no) do nothing
      returning app_id, out_trx_no`;
    const read = (claimed: RawBuilder<unknown>, more: RawBuilder<unknown>, join: RawBuilder<unknown>) => sql<FoundRow>`
      with ${keys}${more}
      select k.idx, o.trx_no, o.request_digest as order_digest, ${claimed} as claimed,
        c.request_digest, c.attempt, c.lease_until, c.settled_attempt, c.outcome
      from k
      left join orders o on o.app_id = k.app_id and o.out_trx_no = k.out_trx_no
      ${join}
      left join placement_claims c on c.app_id = k.app_id and c.out_trx_no = k.out_trx_no`;
    let found: FoundRow[];
    if (this.relaxed.dialect === 'postgres') {
      // The SELECT sees the tables as they were before the INSERT: a claim made now shows in `ins` only.
      ({ rows: found } = await read(
        sql`ins.app_id is not null`,
        sql`, ins as (${insert})`,
        sql`left join ins on ins.app_id = k.app_id and ins.out_trx_no = k.out_trx_no`,
      ).execute(this.db));
    } else {
      found = await this.relaxed.connection(async (c) => {
        const { rows: inserted } = await sql<{ app_id: number; out_trx_no: string }>`with ${keys} ${insert}`.execute(c);
        const mine = new Set(inserted.map((r) => keyOf({ appId: r.app_id, outTrxNo: r.out_trx_no })));
        const { rows } = await read(sql`0`, sql``, sql``).execute(c);
        return rows.map((r) => ({ ...r, claimed: mine.has(keyOf(batch[r.idx]!)) }));
      });
    }
    const byIdx = new Map(found.map((r) => [Number(r.idx), r]));
    return batch.map((_, i) => {
      const row = byIdx.get(i);
      if (!row) return { claimed: false, order: null, claim: null };
      const claimed = row.claimed === true || row.claimed === 1;
      // A claim made now is this placement's own: nothing else holds the orderId.
      return claimed ? { claimed, order: null, claim: null } : { claimed, ...lookOf(row) };
    });
  }
}

function keyOf(k: ClaimKey): string {
  return `${k.appId}\u0000${k.outTrxNo}`;
}

function lookOf(row: LookRow | undefined): Look {
  if (!row) return { order: null, claim: null };
  return {
    order: row.trx_no === null ? null : { trx_no: Number(row.trx_no), request_digest: row.order_digest },
    claim:
      row.attempt === null
        ? null
        : {
            request_digest: row.request_digest!,
            attempt: Number(row.attempt),
            lease_until: Number(row.lease_until),
            settled_attempt: row.settled_attempt === null ? null : Number(row.settled_attempt),
            outcome: row.outcome,
          },
  };
}
