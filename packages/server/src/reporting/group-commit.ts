/** An item for GroupCommit: items with the same lock key are never written in the same or concurrent batches. */
export interface Lockable {
  lockKey: string;
}

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitOptions {
  maxBatch: number;
  maxInFlight: number;
}

/**
 * Group commit: concurrent requests are collected for one event-loop turn and
 * written together by `write` (one transaction for the batch), and each is
 * answered only after that commit, with its own outcome.
 *
 * Items sharing a lock key (a reporter) wait for the next batch, so that in
 * one batch no two items see or change the same rows (duplicate guard,
 * per-reporter caps), and caps hold exactly within this instance.
 *
 * If a batch fails, each of its items is retried alone, so that one bad item
 * cannot fail the others; an item that fails alone gets its own error.
 */
export class GroupCommit<T extends Lockable, R> {
  #pending: Pending<T, R>[] = [];
  #locked = new Set<string>();
  #scheduled = false;
  #inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly opts: GroupCommitOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.opts.maxInFlight || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    const batch: Pending<T, R>[] = [];
    const keys = new Set<string>();
    const waiting: Pending<T, R>[] = [];
    for (const p of this.#pending) {
      const key = p.item.lockKey;
      if (batch.length < this.opts.maxBatch && !keys.has(key) && !this.#locked.has(key)) {
        batch.push(p);
        keys.add(key);
      } else {
        waiting.push(p);
      }
    }
    this.#pending = waiting;
    // Everything waits for a batch in flight, which schedules again when it ends.
    if (batch.length === 0) return;
    for (const key of keys) this.#locked.add(key);
    this.#inFlight++;
    void this.#run(batch).finally(() => {
      for (const key of keys) this.#locked.delete(key);
      this.#inFlight--;
      this.#schedule();
    });
    this.#schedule();
  }

  async #run(batch: Pending<T, R>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const p of batch) {
        try {
          p.resolve((await this.write([p.item]))[0]!);
        } catch (itemErr) {
          p.reject(itemErr);
        }
      }
    }
  }
}
