/** Thrown to waiters of a limiter that is shut down. */
export class LimiterClosedError extends Error {
  override name = 'LimiterClosedError';
}

/**
 * Counting semaphores keyed by destination host, so one slow game server
 * holds at most `perKey` sends and a bounded queue, never the whole pool.
 */
export class KeyedLimiter {
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<{ resolve: () => void; reject: (e: Error) => void }>>();
  #closed = false;

  constructor(
    private readonly perKey: number,
    private readonly maxQueue: number,
  ) {}

  /** Whether another sender may queue for `key` (false: defer the event). */
  canQueue(key: string): boolean {
    return (this.#waiting.get(key)?.length ?? 0) < this.maxQueue;
  }

  acquire(key: string): Promise<void> {
    if (this.#closed) return Promise.reject(new LimiterClosedError('stopping'));
    const active = this.#active.get(key) ?? 0;
    if (active < this.perKey) {
      this.#active.set(key, active + 1);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(key) ?? [];
      queue.push({ resolve, reject });
      this.#waiting.set(key, queue);
    });
  }

  release(key: string): void {
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.#waiting.delete(key);
    if (next) return next.resolve(); // the slot passes straight to the next waiter
    const active = (this.#active.get(key) ?? 1) - 1;
    if (active <= 0) this.#active.delete(key);
    else this.#active.set(key, active);
  }

  /** Rejects every waiter (shutdown). */
  close(): void {
    this.#closed = true;
    for (const queue of this.#waiting.values()) for (const w of queue) w.reject(new LimiterClosedError('stopping'));
    this.#waiting.clear();
  }
}

/**
 * The optional per-app rate limit: a token bucket of `perSecond` tokens
 * refilled continuously, holding at most one second's worth (at least one).
 */
export class AppRateLimiter {
  readonly #buckets = new Map<number, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  /** 0 when a send may go now (a token is taken), else how many ms until one is available. */
  take(appId: number): number {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    const b = this.#buckets.get(appId) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(Math.max(1, this.perSecond), b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.#buckets.set(appId, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) / this.perSecond) * 1000);
  }
}
