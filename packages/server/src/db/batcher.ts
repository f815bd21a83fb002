import { sql, type RawBuilder } from 'kysely';

/**
 * Group work of concurrent requests into one database round trip (or one
 * transaction): items submitted while earlier batches are in flight are
 * flushed together as soon as a slot frees, at most `maxInFlight` batches at
 * once and `maxBatch` items each. A lone request waits for nothing but the
 * end of its event-loop turn (setImmediate), so an idle service answers as
 * fast as before; under load the round trips per request fall with the load.
 *
 * `flush` answers one result per item, in order: a value, or an Error for
 * that item alone. When `flush` throws, every item of the batch gets that
 * error (the caller decides whether to retry items one by one).
 */
export class Batcher<I, O> {
  #pending: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(
    private readonly flush: (items: I[]) => Promise<Array<O | Error>>,
    private readonly opts: { maxBatch: number; maxInFlight: number },
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
      const batch = this.#pending.splice(0, this.opts.maxBatch);
      if (batch.length === 0) return;
      this.#inFlight++;
      this.#run(batch).finally(() => {
        this.#inFlight--;
        this.#schedule();
      });
      this.#schedule();
    });
  }

  async #run(batch: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }>): Promise<void> {
    try {
      const results = await this.flush(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        const r = results[i];
        if (r instanceof Error) p.reject(r);
        else p.resolve(r as O);
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

/**
 * `CASE <idColumn> WHEN id THEN CAST(value AS type) ... END`: a different
 * value per row in one multi-row UPDATE (`... WHERE idColumn IN (ids)`), on
 * both backends. The cast types the parameters for PostgreSQL, which would
 * otherwise take a CASE of untyped parameters for text.
 */
export function caseById<V>(idColumn: string, type: 'bigint' | 'text', pairs: Array<[number, V]>): RawBuilder<V> {
  const whens = pairs.map(([id, v]) => sql`when ${id} then cast(${v} as ${sql.raw(type)})`);
  return sql<V>`case ${sql.ref(idColumn)} ${sql.join(whens, sql` `)} end`;
}
