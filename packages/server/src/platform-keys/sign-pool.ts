import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

interface Job {
  resolve: (signature: string) => void;
  reject: (err: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  kids: Set<string>;
  pending: number;
}

/**
 * RSA signing off the main thread. Every call to a game carries one RSA-2048
 * signature (5.3), the most expensive step of a delivery; signing in worker
 * threads leaves the event loop to HTTP and the database, and uses the other
 * cores. With `size` 0 it signs inline.
 */
export class SignPool {
  readonly #workers: PoolWorker[] = [];
  readonly #jobs = new Map<number, Job>();
  #nextId = 0;
  #closed = false;

  constructor(private readonly size: number) {}

  async sign(kid: string, key: crypto.KeyObject, base: Buffer): Promise<string> {
    if (this.size === 0 || this.#closed) return crypto.sign('sha256', base, key).toString('base64');
    const w = this.#pick();
    if (!w.kids.has(kid)) {
      w.worker.postMessage({ kind: 'key', kid, key });
      w.kids.add(kid);
    }
    const id = this.#nextId++;
    w.pending++;
    return new Promise<string>((resolve, reject) => {
      this.#jobs.set(id, {
        resolve: (s) => { w.pending--; resolve(s); },
        reject: (e) => { w.pending--; reject(e); },
      });
      w.worker.postMessage({ kind: 'sign', id, kid, base });
    });
  }

  #pick(): PoolWorker {
    if (this.#workers.length < this.size) {
      const worker = new Worker(new URL('./sign-worker.js', import.meta.url));
      worker.unref();
      worker.on('message', (m: { id: number; signature?: string; error?: string }) => {
        const job = this.#jobs.get(m.id);
        this.#jobs.delete(m.id);
        if (m.signature !== undefined) job?.resolve(m.signature);
        else job?.reject(new Error(m.error ?? 'signing failed'));
      });
      worker.on('error', (err) => {
        for (const [id, job] of this.#jobs) { this.#jobs.delete(id); job.reject(err); }
      });
      const w = { worker, kids: new Set<string>(), pending: 0 };
      this.#workers.push(w);
      return w;
    }
    return this.#workers.reduce((a, b) => (b.pending < a.pending ? b : a));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#workers.map((w) => w.worker.terminate()));
    this.#workers.length = 0;
  }
}
