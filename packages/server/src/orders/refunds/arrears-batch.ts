import { firstOfEachNonce, freshNoncesCte, recordNonces, type NonceUse } from '../../auth/nonce-ledger.js';
import { Batcher } from '../../db/batcher.js';
import type { Database } from '../../db/database.js';
import { groupBy } from '../../db/group-by.js';
import type { Tables } from '../../db/tables.js';
import { OrdersRepository, type SupplementRow } from '../orders.repository.js';

/** One 4.5 request: whose arrears to read, and the request's nonce (5.2) to record. */
export interface ArrearsRead {
  appId: number;
  userId: string;
  nonce: NonceUse;
}

/**
 * PostgreSQL: the nonces of a batch of 4.5 requests recorded (the nonce ledger's CTE) and the pending supplements
 * of store refunds of the players whose nonce was fresh, in one named statement on the relaxed pool (a read needs no
 * synchronous commit; the nonces never did). $1-$5: scopes, nonces, expiries, app ids, user ids.
 */
const ARREARS_WITH_NONCES = `with input as (
  select * from unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::text[])
    as t(scope, nonce, expires_at, app_id, user_id)
),
${freshNoncesCte('input', { scope: 'scope', nonce: 'nonce', expiresAt: 'expires_at' })}
select fresh.scope as nonce_scope, fresh.nonce as nonce_value, s.*
from fresh
join input i on i.scope = fresh.scope and i.nonce = fresh.nonce
left join supplements s
  on s.app_id = i.app_id and s.user_id = i.user_id and s.supply_status = 1 and s.channel_type in (1, 2)
order by s.refund_trx_no`;

type Answer = SupplementRow[] | null;
const nonceKey = (u: NonceUse) => `${u.scope}\u0000${u.nonce}`;

/**
 * The arrears reads (4.5) of concurrent requests with their nonces: one statement a batch on PostgreSQL, one turn of
 * the relaxed connection on SQLite (the nonces' insert, then the read). Answers each request's pending supplements,
 * or null when its nonce was used. A batch starts after its requests arrived, so each answer reflects every change
 * committed before its request (a paid supplement is gone at once). The same nonce twice in a batch: the first only.
 * One round trip a batch instead of two batched statements at once: 4.5's CPU over its ceiling's went from
 * 1.70-2.02x to 1.03-1.46x on SQLite and 1.49-2.43x to 1.54-1.73x on PostgreSQL in an A/B (issue 33).
 */
export function arrearsBatcher(database: Pick<Database<Tables>, 'dialect' | 'relaxed'>): Batcher<ArrearsRead, Answer> {
  const { relaxed } = database;
  const read = async (items: ArrearsRead[]): Promise<Answer[]> => {
    const first = firstOfEachNonce(items.map((x) => x.nonce));
    const batch = items.filter((_, i) => first[i]);
    let fresh: Set<string>;
    let byUser: Map<string, SupplementRow[]>;
    if (relaxed.dialect === 'postgres') {
      const rows = await relaxed.query<SupplementRow & { nonce_scope: string; nonce_value: string }>(
        'arrears_with_nonces',
        ARREARS_WITH_NONCES,
        [
          batch.map((x) => x.nonce.scope),
          batch.map((x) => x.nonce.nonce),
          batch.map((x) => x.nonce.expiresAt),
          batch.map((x) => x.appId),
          batch.map((x) => x.userId),
        ],
      );
      fresh = new Set(rows.map((r) => `${r.nonce_scope}\u0000${r.nonce_value}`));
      const supplements = rows
        .filter((r) => r.refund_trx_no !== null)
        .map(({ nonce_scope: _s, nonce_value: _n, ...row }) => row as SupplementRow);
      byUser = groupBy(supplements, (r) => `${r.app_id}\u0000${r.user_id}`);
    } else {
      ({ fresh, byUser } = await relaxed.connection(async (db) => {
        const recorded = await recordNonces(
          db,
          batch.map((x) => x.nonce),
        );
        const admitted = batch.filter((_, i) => recorded[i]);
        const lists = admitted.length === 0 ? [] : await new OrdersRepository(db).pendingSupplementsOf(admitted);
        return {
          fresh: new Set(admitted.map((x) => nonceKey(x.nonce))),
          byUser: new Map(admitted.map((x, i) => [`${x.appId}\u0000${x.userId}`, lists[i]!])),
        };
      }));
    }
    return items.map((x, i) =>
      first[i] && fresh.has(nonceKey(x.nonce)) ? (byUser.get(`${x.appId}\u0000${x.userId}`) ?? []) : null,
    );
  };
  return new Batcher(read, { maxBatch: 500, maxInFlight: database.dialect.batchesInFlight() });
}
