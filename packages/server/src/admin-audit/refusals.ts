import client from 'prom-client';
import { attachOnce, counter } from '../http/unattached-metrics.js';

/** The area of a refused request: the admin API (and console) or the studio portal. */
export type RefusalArea = 'admin' | 'portal';

const WINDOW_MS = 60_000;

/**
 * How many refused requests (401, 403, CSRF, failed sign-ins) the audit trail takes (docs/operations.md, "Refusals"):
 * per instance, at most `perMinute` entries a minute (a fixed window), at most a quarter of them (at least one) from
 * one IP, so one flooding caller cannot crowd out the others' entries, and a flood cannot fill the table: at the
 * default 60 a minute that is at most 86,400 rows a day an instance, which retention (RETENTION_ADMIN_ACTIONS_DAYS)
 * then bounds. What is over the bound is only counted (audit_refusals_dropped_total). Memory is bounded too: the
 * per-IP counts hold at most `perMinute` addresses.
 */
export class RefusalBound {
  #windowStart = -Infinity;
  #taken = 0;
  readonly #byIp = new Map<string, number>();
  readonly #perIp: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {
    this.#perIp = Math.max(1, Math.floor(perMinute / 4));
  }

  /** Whether an entry of a refusal from `ip` may be written now (and counts it). */
  take(ip: string): boolean {
    const t = this.now();
    if (t - this.#windowStart >= WINDOW_MS || t < this.#windowStart) {
      this.#windowStart = t;
      this.#taken = 0;
      this.#byIp.clear();
    }
    const fromIp = this.#byIp.get(ip) ?? 0;
    if (this.#taken >= this.perMinute || fromIp >= this.#perIp) return false;
    this.#taken++;
    this.#byIp.set(ip, fromIp + 1);
    return true;
  }
}

/** Refusals of the admin API and the portal as metrics: every one counted, recorded in the trail or not. */
export class RefusalMetrics {
  readonly refusals = counter(
    'audit_refusals_total',
    'Refused admin and portal requests (401, 403, CSRF, failed sign-ins, another studio app), by area (admin, portal) and audit event',
    ['area', 'event'],
  );
  readonly dropped = counter(
    'audit_refusals_dropped_total',
    'Refused requests not written to the audit trail because of its bound (AUDIT_REFUSALS_PER_MINUTE), by area',
    ['area'],
  );

  constructor() {
    // From 0, so the first refusal dropped is an increase.
    for (const area of ['admin', 'portal']) this.dropped.inc({ area }, 0);
  }

  attach(registry: client.Registry): void {
    attachOnce(registry, { audit_refusals_total: this.refusals, audit_refusals_dropped_total: this.dropped });
  }
}
