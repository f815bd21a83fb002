import type SQLite from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import { Batcher } from '../db/batcher.js';
import type { Database } from '../db/database.js';
import type { Tables } from '../db/tables.js';

/**
 * The nonce ledger: the one module with SQL on the `nonces` table. One-time
 * nonces (5.1, 5.2) are kept in the database so they hold across several
 * service instances; a nonce is kept as long as the timestamp window, after
 * which the timestamp check alone refuses a replay.
 *
 * Three ways in, for three kinds of caller:
 * - `NonceLedger.consume`: a route that only reads records its nonce alone;
 * - `recordNonces` (SQLite) and `freshNoncesCte` (PostgreSQL): a write route's
 *   store records the nonces in its own batch transaction or statement (one
 *   round trip per batch, not two; see reports.store.ts, consumption-notices.store.ts).
 */

/** A nonce to record: its scope (an app or a token), the nonce, and when it may be forgotten. */
export interface NonceUse {
  scope: string;
  nonce: string;
  expiresAt: number;
}

/** Per use, whether it is the first of its nonce in `uses`: of the same nonce twice in one batch, only the first can be fresh. */
export function firstOfEachNonce(uses: NonceUse[]): boolean[] {
  const seen = new Set<string>();
  return uses.map((u) => {
    const key = `${u.scope}\u0000${u.nonce}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Records nonces in the caller's transaction (SQLite: a write route that stores its request with them); answers, per
 * use, whether it was fresh. Uses must be distinct (firstOfEachNonce). Constant SQL text per batch size, no query
 * builder (reports.sqlite-batch.ts says why).
 */
export async function recordNonces(trx: Kysely<Tables>, uses: NonceUse[]): Promise<boolean[]> {
  if (uses.length === 0) return [];
  const { rows } = await trx.executeQuery<{ scope: string; nonce: string }>(
    CompiledQuery.raw(
      recordNoncesSql(uses.length),
      uses.flatMap((u) => [u.scope, u.nonce, u.expiresAt]),
    ),
  );
  if (uses.length === 1) return [rows.length === 1];
  const inserted = new Set(rows.map((r) => `${r.scope}\u0000${r.nonce}`));
  return uses.map((u) => inserted.has(`${u.scope}\u0000${u.nonce}`));
}

const recordNoncesTexts: string[] = [];
/** The insert-if-absent of `n` nonces (SQLite), made once per n. */
function recordNoncesSql(n: number): string {
  return (recordNoncesTexts[n] ??=
    `insert into nonces (scope, nonce, expires_at) values ${Array.from({ length: n }, () => '(?, ?, ?)').join(', ')} ` +
    'on conflict (scope, nonce) do nothing returning scope, nonce');
}

/**
 * PostgreSQL: the common table expression `fresh(scope, nonce)` that records
 * the nonces of the rows of `from` (a CTE of the caller's batch statement)
 * and answers those that were fresh; join on it to keep only the admitted
 * rows. Data-modifying CTEs see one snapshot, so the unique key decides
 * against concurrent statements. Column names are the caller's.
 */
export function freshNoncesCte(from: string, columns: { scope: string; nonce: string; expiresAt: string }): string {
  return `fresh as (
  insert into nonces (scope, nonce, expires_at) select ${columns.scope}, ${columns.nonce}, ${columns.expiresAt} from ${from}
  on conflict (scope, nonce) do nothing
  returning scope, nonce
)`;
}

const PG_CONSUME =
  'insert into nonces (scope, nonce, expires_at) select * from unnest($1::text[], $2::text[], $3::int8[]) ' +
  'on conflict (scope, nonce) do nothing returning scope, nonce';
const SQLITE_CONSUME = 'insert or ignore into nonces (scope, nonce, expires_at) values (@scope, @nonce, @expires_at)';

/**
 * Concurrent requests' nonces are written together (group commit, db/batcher.ts):
 * one insert-if-absent per batch on the relaxed connection (Database.relaxed),
 * and a nonce is fresh exactly when its row was inserted. The unique key still
 * decides, so batches in flight at once (here or on other instances) stay
 * correct. On PostgreSQL four batches in flight match the four connections of
 * the relaxed pool: under load a batch waits less for the one before it.
 * Constant SQL text, no query builder: this is on the path of every signed request.
 */
export class NonceLedger {
  readonly #batcher: Batcher<NonceUse, boolean>;
  #sqliteInsert: SQLite.Statement | undefined;

  constructor(private readonly database: Database) {
    this.#batcher = new Batcher((uses) => this.#write(uses), {
      maxBatch: 500,
      maxInFlight: database.dialect.batchesInFlight(),
    });
  }

  /** Records the nonce; false when it was already used in this scope. */
  consume(scope: string, nonce: string, expiresAt: number): Promise<boolean> {
    return this.#batcher.submit({ scope, nonce, expiresAt });
  }

  async #write(uses: NonceUse[]): Promise<boolean[]> {
    const isFirst = firstOfEachNonce(uses);
    const fresh = uses.filter((_, i) => isFirst[i]);
    const inserted = fresh.length === 0 ? [] : await this.#insertIgnore(fresh);
    let k = 0;
    return isFirst.map((first) => (first ? inserted[k++]! : false));
  }

  async #insertIgnore(uses: NonceUse[]): Promise<boolean[]> {
    const relaxed = this.database.relaxed;
    if (relaxed.dialect === 'postgres') {
      const rows = await relaxed.query<{ scope: string; nonce: string }>('nonce_consume', PG_CONSUME, [
        uses.map((u) => u.scope),
        uses.map((u) => u.nonce),
        uses.map((u) => u.expiresAt),
      ]);
      const inserted = new Set(rows.map((r) => `${r.scope}\u0000${r.nonce}`));
      return uses.map((u) => inserted.has(`${u.scope}\u0000${u.nonce}`));
    }
    return relaxed.transaction((sqlite) => {
      const insert = (this.#sqliteInsert ??= sqlite.prepare(SQLITE_CONSUME));
      return uses.map((u) => insert.run({ scope: u.scope, nonce: u.nonce, expires_at: u.expiresAt }).changes === 1);
    });
  }

  /** Deletes expired nonces; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const result = await this.database.db.deleteFrom('nonces').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
