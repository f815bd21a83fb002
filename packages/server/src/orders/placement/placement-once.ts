import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors/app-error.js';
import type { ErrorReason } from '../../errors/codes.js';
import type { ClaimKey, PlacementClaims } from './placement-claims.js';

/**
 * How a placement of a client orderId ended, for every placement it answers:
 * an order holds the orderId (`trxNo`, with the digest of the request that
 * placed it), or the attempt failed before any order was written (`error`,
 * e.g. the game blocked it). `digest` tells identical placements (2.4 rule 5)
 * from an orderId reused with other contents.
 */
export type Settled =
  { kind: 'order'; trxNo: number; digest: string | null } | { kind: 'failed'; digest: string; error: unknown };

/** An order holds the orderId. */
export type Ordered = Extract<Settled, { kind: 'order' }>;

/**
 * What `once` answers: the settlement, and whether this placement made the
 * attempt (`own`; false: it joined another placement's attempt). `S` is what
 * the placement's own attempt resolved with, which placements waiting on the
 * same instance get too.
 */
export interface Joined<S extends Ordered> {
  settled: S | Settled;
  own: boolean;
}

/** Polling another instance's attempt: the first wait, doubling up to the last. */
const POLL_FIRST_MS = 10;
const POLL_MAX_MS = 200;
/** Rounds of claim, take-over and wait before giving up (each ends in an answer unless others keep winning races). */
const MAX_ROUNDS = 50;

/**
 * Identical concurrent placements of a client orderId ask the game once
 * (4.8, 4.10; docs/orders.md): the first claims the orderId and makes the
 * attempt (`attempt()`: the game's checks, then the order); the others answer
 * that attempt's outcome, its order or its failure, without calling the game.
 * On one instance the others wait for the attempt in memory; placements on
 * other instances find the claim in the database (PlacementClaims) and poll it
 * with a short back-off until the order exists or the attempt settles.
 *
 * A placement answers the attempt it found in progress. A placement that
 * finds the last attempt already settled as failed makes a new one (the game
 * may have recovered), as does one that finds the holder's lease run out (the
 * holder died): both take the claim over with a compare-and-set, so
 * placements doing that at once still make one attempt. A placement with
 * other contents (another digest) waits the same way; it is then refused when
 * an order was placed (OUT_TRX_NO_CONFLICT, by the caller) and makes its own
 * attempt when the one it waited for failed.
 */
export class PlacementOnce {
  /** Placements in progress on this instance, one per orderId: the one that talks to the database. */
  readonly #local = new Map<string, Promise<Settled>>();

  constructor(
    private readonly claims: PlacementClaims,
    private readonly now: () => number,
  ) {}

  /**
   * The outcome that answers this placement. `leaseMs` bounds how long the
   * attempt may take (the game calls with their retry); `attempt` makes it,
   * resolving once an order holds the orderId and throwing when it failed
   * before any order was written. Never throws: a failure is a settlement.
   */
  async once<S extends Ordered>(
    key: ClaimKey,
    digest: string,
    leaseMs: number,
    attempt: () => Promise<S>,
  ): Promise<Joined<S>> {
    const id = `${key.appId}\u0000${key.outTrxNo}`;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const running = this.#local.get(id);
      if (running) {
        const settled = await running;
        if (settled.kind === 'order' || settled.digest === digest) return { settled: shared(settled), own: false };
        continue; // an attempt with other contents failed: the orderId is free again
      }
      // This placement is the one of this instance that goes to the database; the others wait for it here.
      let done!: (s: Settled) => void;
      this.#local.set(
        id,
        new Promise<Settled>((resolve) => {
          done = resolve;
        }),
      );
      let joined: Joined<S>;
      try {
        joined = await this.#settle(key, digest, leaseMs, attempt);
      } catch (error) {
        // The claim's own statements failed (the database): that is the answer of those waiting here, too.
        joined = { settled: { kind: 'failed', digest, error }, own: true };
      }
      this.#local.delete(id);
      done(joined.settled);
      return joined;
    }
    return { settled: { kind: 'failed', digest, error: busy(key) }, own: false };
  }

  /** Through the database: claims the orderId and makes the attempt, or waits for the attempt in progress. */
  async #settle<S extends Ordered>(
    key: ClaimKey,
    digest: string,
    leaseMs: number,
    attempt: () => Promise<S>,
  ): Promise<Joined<S>> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.now();
      const found = await this.claims.claim(key, digest, now, now + leaseMs);
      if (found.order)
        return {
          settled: { kind: 'order', trxNo: found.order.trx_no, digest: found.order.request_digest },
          own: false,
        };
      if (found.claimed) return this.#attempt(key, 1, digest, attempt);
      const claim = found.claim;
      if (!claim) continue; // claimed or ordered by another instance between our statement's snapshot and its insert
      if (claim.settled_attempt === claim.attempt || claim.lease_until <= now) {
        if (await this.claims.takeOver(key, claim.attempt, digest, now, now + leaseMs))
          return this.#attempt(key, claim.attempt + 1, digest, attempt);
        continue;
      }
      const settled = await this.#watch(key, claim.attempt);
      if (settled?.kind === 'order') return { settled, own: false };
      if (settled?.kind === 'failed' && claim.request_digest === digest)
        return { settled: { ...settled, digest }, own: false };
      // An attempt with other contents failed, the attempt ended with nothing to share, or its holder died: look again.
    }
    throw busy(key);
  }

  /** Makes attempt `n`; a failure is recorded on the claim before it is answered, for placements waiting elsewhere. */
  async #attempt<S extends Ordered>(
    key: ClaimKey,
    n: number,
    digest: string,
    attempt: () => Promise<S>,
  ): Promise<Joined<S>> {
    try {
      return { settled: await attempt(), own: true };
    } catch (error) {
      // Only an AppError is an answer to share; anything else (a bug, the database) releases the claim for a new attempt.
      // If this write fails too, the claim is taken over when its lease runs out.
      await this.claims.settle(key, n, error instanceof AppError ? outcomeOf(error) : null, this.now()).catch(() => {});
      return { settled: { kind: 'failed', digest, error }, own: true };
    }
  }

  /**
   * Polls another instance's attempt `attempt` until it has an outcome (null:
   * it ended with none to share, was taken over, or the claim is gone), or its
   * lease runs out (null: the next round takes it over).
   */
  async #watch(key: ClaimKey, attempt: number): Promise<Settled | null> {
    for (let wait = POLL_FIRST_MS; ; wait = Math.min(wait * 2, POLL_MAX_MS)) {
      await sleep(wait);
      const { order, claim } = await this.claims.look(key);
      if (order) return { kind: 'order', trxNo: order.trx_no, digest: order.request_digest };
      if (!claim) return null;
      if (claim.settled_attempt === attempt) {
        return claim.outcome === null
          ? null
          : { kind: 'failed', digest: claim.request_digest, error: errorOf(claim.outcome) };
      }
      if (claim.attempt !== attempt || claim.lease_until <= this.now()) return null;
    }
  }
}

function busy(key: ClaimKey): AppError {
  return new AppError(
    'UNAVAILABLE',
    `order ${JSON.stringify(key.outTrxNo)} is being placed by other requests; retry later`,
  );
}

/** An outcome as a claim records it: what the error handler answers (code, msg, detail, data). */
interface Outcome {
  reason: ErrorReason;
  detail: string;
  msg?: string;
  data?: unknown;
  headers?: Record<string, string>;
}

function outcomeOf(error: AppError): string {
  const outcome: Outcome = {
    reason: error.reason,
    detail: error.detail,
    ...(error.msgOverride !== undefined ? { msg: error.msgOverride } : {}),
    ...(error.data !== undefined ? { data: error.data } : {}),
    ...(error.headers !== undefined ? { headers: error.headers } : {}),
  };
  return JSON.stringify(outcome);
}

function errorOf(outcome: string): AppError {
  const o = JSON.parse(outcome) as Outcome;
  return new AppError(o.reason, o.detail, {
    ...(o.msg !== undefined ? { msg: o.msg } : {}),
    ...(o.data !== undefined ? { data: o.data } : {}),
    ...(o.headers !== undefined ? { headers: o.headers } : {}),
  });
}

/** A settlement as another placement answers it: an AppError is copied (same code, msg, detail, data), not shared. */
function shared(settled: Settled): Settled {
  if (settled.kind === 'order' || !(settled.error instanceof AppError)) return settled;
  const e = settled.error;
  return {
    ...settled,
    error: new AppError(e.reason, e.detail, {
      ...(e.msgOverride !== undefined ? { msg: e.msgOverride } : {}),
      ...(e.data !== undefined ? { data: e.data } : {}),
      ...(e.headers !== undefined ? { headers: e.headers } : {}),
    }),
  };
}
