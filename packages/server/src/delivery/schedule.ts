/**
 * The retry schedule (spec 6 leaves it open): the delay before each attempt,
 * counted from the previous one. Its length is the number of attempts; after
 * the last failed attempt the event is dead. The one place delays are computed.
 */
export interface RetrySchedule {
  /** Milliseconds; delays[0] is 0 (the first attempt is immediate). */
  delays: number[];
  /** Fraction of random spread around each retry delay (0.1: +-10%). */
  jitter: number;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `0,15s,1m,...` -> milliseconds. Throws on a malformed entry. */
export function parseDurations(text: string): number[] {
  return text.split(',').map((raw) => {
    const entry = raw.trim();
    if (entry === '0') return 0;
    const m = /^([0-9]{1,9})(ms|s|m|h|d)$/.exec(entry);
    if (!m) throw new Error(`bad duration ${JSON.stringify(entry)} (use e.g. 500ms, 15s, 1m, 2h, 1d)`);
    return Number(m[1]) * UNIT_MS[m[2]!]!;
  });
}

export function parseSchedule(text: string, jitter: number): RetrySchedule {
  const delays = parseDurations(text);
  if (delays[0] !== 0) throw new Error('the first delay of the schedule must be 0');
  return { delays, jitter };
}

/**
 * After `attempts` failed attempts: when the next one is due, or null when the
 * schedule is used up (the event is dead). A manual resend of a dead event
 * gets one more attempt, so `attempts` may exceed the schedule.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempts: number,
  now: number,
  random: () => number = Math.random,
): number | null {
  if (attempts >= schedule.delays.length) return null;
  const base = schedule.delays[attempts]!;
  const spread = base * schedule.jitter * (2 * random() - 1);
  return now + Math.max(0, Math.round(base + spread));
}

/** Total time from the first attempt to the last, without jitter. */
export function scheduleSpanMs(schedule: RetrySchedule): number {
  return schedule.delays.reduce((a, b) => a + b, 0);
}
