/**
 * A job that runs at most once at a time (boot.ts starts the reconciliations and retention on it): a call while a run
 * is going joins that run instead of starting a second one, and the timer skips its turn meanwhile.
 */
export class OneRunAtATime<T> {
  #running: Promise<T> | undefined;

  /** Runs `job` now, or answers the run already going. */
  run(job: () => Promise<T>): Promise<T> {
    this.#running ??= job().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /**
   * `job` every intervalMs, its turn skipped while a run is going, its failures to onError; null when intervalMs is
   * not positive (the job is off). Unref'd: a pending run keeps no process alive.
   */
  every(intervalMs: number, job: () => Promise<T>, onError: (err: unknown) => void): NodeJS.Timeout | null {
    if (intervalMs <= 0) return null;
    const timer = setInterval(() => {
      if (this.#running === undefined) this.run(job).catch(onError);
    }, intervalMs);
    timer.unref();
    return timer;
  }
}
