import crypto from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/** RSA-SHA256 (PKCS#1 v1.5) of the UTF-8 bytes of a sign base, base64: 5.3's Signature. */
export function rsaSignText(base: string, key: crypto.KeyObject): string {
  return crypto.sign('sha256', Buffer.from(base, 'utf8'), key).toString('base64');
}

interface Job {
  kid: string;
  key: crypto.KeyObject;
  base: string;
  resolve: (signature: string) => void;
  reject: (err: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  kids: Set<string>;
  /** Jobs sent to this thread and not answered yet, in the order sent. */
  inFlight: Map<number, Job[]>;
  pending: number;
}

/** A batch of sign bases for one thread; it answers with the signatures in the same order. */
export interface SignBatch {
  kind: 'sign';
  batch: number;
  kids: string[];
  bases: string[];
}

export interface SignAnswer {
  batch: number;
  signatures?: string[];
  error?: string;
}

/**
 * RSA signing off the main thread. Every call to a game carries one RSA-2048
 * signature (5.3), the most expensive step of a delivery; signing in worker
 * threads leaves the event loop to HTTP and the database, and uses the other
 * cores. With `size` 0 it signs inline; -1: one thread per core (signing is
 * the bulk of the CPU of a delivery, so on a small machine every core should
 * be able to sign while the event loop waits for the network).
 *
 * The requests of one turn of the event loop go to a thread as one message,
 * and come back as one: a message costs a thread wake-up on each side (tens
 * of microseconds here), as much as a tenth of a signature. Sign bases travel
 * as strings, which copy only their characters (a small Buffer is a view of
 * an 8 KB pool slab, all of which postMessage would copy).
 */
export class SignPool {
  readonly #workers: PoolWorker[] = [];
  readonly #size: number;
  #queued: Job[] = [];
  #flushScheduled = false;
  #nextBatch = 0;
  #closed = false;

  constructor(size: number) {
    this.#size = size < 0 ? Math.max(1, os.availableParallelism()) : size;
  }

  /**
   * Starts the threads now rather than on the first signature: a thread takes ~50-100 ms to start here, which
   * the first callbacks of a drain would otherwise wait for (the dispatcher warms the pool when it starts).
   */
  warm(): void {
    if (this.#closed) return;
    while (this.#workers.length < this.#size) this.#spawn();
  }

  /** The base64 RSA-SHA256 signature of the UTF-8 bytes of `base`. */
  sign(kid: string, key: crypto.KeyObject, base: string): Promise<string> {
    if (this.#size === 0 || this.#closed) return Promise.resolve(rsaSignText(base, key));
    return new Promise<string>((resolve, reject) => {
      this.#queued.push({ kid, key, base, resolve, reject });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Shares the queued jobs among the threads, the least busy first, one message each. */
  #flush(): void {
    this.#flushScheduled = false;
    const jobs = this.#queued;
    this.#queued = [];
    if (jobs.length === 0) return;
    while (this.#workers.length < this.#size) this.#spawn();
    const parts = new Map<PoolWorker, Job[]>();
    for (const job of jobs) {
      const w = this.#workers.reduce((a, b) => (b.pending < a.pending ? b : a));
      w.pending++;
      const part = parts.get(w);
      if (part) part.push(job);
      else parts.set(w, [job]);
    }
    for (const [w, part] of parts) this.#send(w, part);
  }

  #send(w: PoolWorker, jobs: Job[]): void {
    for (const j of jobs) {
      if (!w.kids.has(j.kid)) {
        w.worker.postMessage({ kind: 'key', kid: j.kid, key: j.key });
        w.kids.add(j.kid);
      }
    }
    const batch = this.#nextBatch++;
    w.inFlight.set(batch, jobs);
    const msg: SignBatch = { kind: 'sign', batch, kids: jobs.map((j) => j.kid), bases: jobs.map((j) => j.base) };
    w.worker.postMessage(msg);
  }

  #spawn(): void {
    const worker = new Worker(new URL('./sign-worker.js', import.meta.url));
    worker.unref();
    const w: PoolWorker = { worker, kids: new Set<string>(), inFlight: new Map(), pending: 0 };
    worker.on('message', (m: SignAnswer) => {
      const jobs = w.inFlight.get(m.batch);
      if (!jobs) return;
      w.inFlight.delete(m.batch);
      w.pending -= jobs.length;
      jobs.forEach((j, i) => {
        const signature = m.signatures?.[i];
        if (signature !== undefined) j.resolve(signature);
        else j.reject(new Error(m.error ?? 'signing failed'));
      });
    });
    worker.on('error', (err) => {
      for (const jobs of w.inFlight.values()) for (const j of jobs) j.reject(err);
      w.inFlight.clear();
      w.pending = 0;
      // A dead thread is replaced at the next flush.
      const i = this.#workers.indexOf(w);
      if (i >= 0) this.#workers.splice(i, 1);
    });
    this.#workers.push(w);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // Jobs queued for the next turn are signed inline rather than lost.
    for (const j of this.#queued.splice(0)) j.resolve(rsaSignText(j.base, j.key));
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
    for (const w of workers)
      for (const jobs of w.inFlight.values()) for (const j of jobs) j.reject(new Error('signing pool closed'));
  }
}
