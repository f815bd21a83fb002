import { sql, type RawBuilder, type UpdateQueryBuilder } from 'kysely';

export interface BatcherOptions<I> {
  maxBatch: number;
  maxInFlight: number;
  /**
   * Items with the same key never share a batch nor run in concurrent batches
   * (a later one waits for the next batch): a batch never sees two changes to
   * the same rows (a reporter's caps, a duplicate guard), so rules that read
   * before they write hold exactly within this instance.
   */
  lockKey?: (item: I) => string;
  /** When a whole batch fails, flush each of its items alone (in turn), so one bad item fails alone. */
  retryAlone?: boolean;
}

interface Pending<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (e: unknown) => void;
}

/**
 * Group work of concurrent requests into one database round trip (or one
 * transaction): items submitted while earlier batches are in flight are
 * flushed together as soon as a slot frees, at most `maxInFlight` batches at
 * once and `maxBatch` items each. A lone request waits for nothing but the
 * end of its event-loop turn (setImmediate), so an idle service answers as
 * fast as before; under load the round trips per request fall with the load.
 * Each request is answered only after its batch's flush (its COMMIT) ended.
 *
 * `flush` answers one result per item, in order: a value, or an Error for
 * that item alone. When `flush` throws, every item of the batch gets that
 * error, unless `retryAlone`.
 */
export class Batcher<I, O> {
  #pending: Pending<I, O>[] = [];
  #locked = new Set<string>();
  #scheduled = false;
  #inFlight = 0;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<O | Error>>,
    private readonly opts: BatcherOptions<I>,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.opts.maxInFlight || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const { batch, keys } = this.#take();
      // Everything left waits for a batch in flight, which schedules again when it ends.
      if (batch.length === 0) return;
      for (const key of keys) this.#locked.add(key);
      this.#inFlight++;
      this.#run(batch).finally(() => {
        for (const key of keys) this.#locked.delete(key);
        this.#inFlight--;
        this.#schedule();
      });
      this.#schedule();
    });
  }

  /** The next batch: pending items in order, up to maxBatch, skipping those whose lock key is taken. */
  #take(): { batch: Pending<I, O>[]; keys: Set<string> } {
    const keys = new Set<string>();
    const { lockKey, maxBatch } = this.opts;
    if (!lockKey) return { batch: this.#pending.splice(0, maxBatch), keys };
    const batch: Pending<I, O>[] = [];
    const waiting: Pending<I, O>[] = [];
    for (const p of this.#pending) {
      const key = lockKey(p.item);
      if (batch.length < maxBatch && !keys.has(key) && !this.#locked.has(key)) {
        batch.push(p);
        keys.add(key);
      } else {
        waiting.push(p);
      }
    }
    this.#pending = waiting;
    return { batch, keys };
  }

  async #run(batch: Pending<I, O>[]): Promise<void> {
    try {
      settle(batch, await this.flush(batch.map((p) => p.item)));
    } catch (err) {
      if (!this.opts.retryAlone || batch.length === 1) {
        for (const p of batch) p.reject(err);
        return;
      }
      for (const p of batch) {
        try {
          settle([p], await this.flush([p.item]));
        } catch (itemErr) {
          p.reject(itemErr);
        }
      }
    }
  }
}

function settle<I, O>(batch: Pending<I, O>[], results: Array<O | Error>): void {
  batch.forEach((p, i) => {
    const r = results[i];
    if (r instanceof Error) p.reject(r);
    else p.resolve(r as O);
  });
}

/**
 * `CASE <idColumn> WHEN id THEN CAST(value AS type) ... END`: a different
 * value per row in one multi-row UPDATE (`... WHERE idColumn IN (ids)`), on
 * both backends. The cast types the parameters for PostgreSQL, which would
 * otherwise take a CASE of untyped parameters for text.
 */
function caseById(idColumn: string, type: ColumnType, pairs: Array<[unknown, unknown]>): RawBuilder<unknown> {
  const whens = pairs.map(([id, v]) => sql`when ${id} then cast(${v} as ${sql.raw(type)})`);
  return sql`case ${sql.ref(idColumn)} ${sql.join(whens, sql` `)} end`;
}

type ColumnType = 'bigint' | 'text';

/**
 * A batch's multi-row UPDATE: each of `rows` (its id under `idColumn`, and its new values) gets its own values of the
 * columns of `types` (caseById), `where idColumn in (ids)`. Takes and answers `query` (an updateTable, perhaps with
 * its own `set`), so the caller adds its conditions and `returning`.
 */
export function setEachById<Q extends UpdateQueryBuilder<any, any, any, any>>(
  query: Q,
  idColumn: string,
  types: Record<string, ColumnType>,
  rows: ReadonlyArray<Record<string, unknown>>,
): Q {
  const set = Object.fromEntries(
    Object.entries(types).map(([column, type]) => [
      column,
      caseById(
        idColumn,
        type,
        rows.map((r) => [r[idColumn], r[column]]),
      ),
    ]),
  );
  const ids = rows.map((r) => r[idColumn]);
  return query.set(set).where(idColumn, 'in', ids) as Q;
}
