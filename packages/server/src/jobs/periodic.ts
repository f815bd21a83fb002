/**
 * A periodic job's timer (boot.ts starts reconciliations and retention with it): `run` every intervalMs, skipped
 * while `busy()` so that runs never overlap, its failures to onError. Unref'd: a pending run keeps no process alive.
 */
export function startPeriodic(
  intervalMs: number,
  busy: () => boolean,
  run: () => Promise<unknown>,
  onError: (err: unknown) => void,
): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (busy()) return;
    run().catch(onError);
  }, intervalMs);
  timer.unref();
  return timer;
}
