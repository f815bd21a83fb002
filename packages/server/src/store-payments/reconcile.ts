import { isStoreError } from '../app-stores/errors.js';
import type { StoreName, StoreRefund } from '../app-stores/index.js';
import type { StorePaymentsRepository } from './store-payments.repository.js';
import type { StoreClients } from './store-clients.js';
import type { StoreMessages } from './notifications.js';
import { OneRunAtATime } from '../jobs/periodic.js';

const DAY_MS = 86_400_000;
/** Most App Store transactions one run asks the refund lookup about, per app. */
const APPLE_LOOKUPS_PER_RUN = 200;

export interface ReconcileOptions {
  /** STORE_RECONCILE_INTERVAL_MS; 0: no periodic run. */
  intervalMs: number;
  /** STORE_RECONCILE_DAYS: how far back. */
  days: number;
}

/** What one run found, per store. */
export interface ReconcileReport {
  apple: { apps: number; refunds: number };
  google: { apps: number; refunds: number; acknowledged: number };
}

/**
 * Refunds whose notification never came: every run, for each app with enabled settings, Google's Voided Purchases API
 * since the app's cursor, and Apple's refund lookup for App Store transactions paid in the last `days` and not
 * refunded. Each refund found goes through StoreMessages like a notification (recorded with source `reconcile`).
 * Google purchases whose acknowledgement failed after payment are acknowledged again. Several instances: each app and
 * store is leased (store_cursors), so only one instance polls it at once.
 */
export class StoreReconciliation {
  readonly #runs = new OneRunAtATime<ReconcileReport>();

  constructor(
    private readonly repo: StorePaymentsRepository,
    /**
     * Database.reads (the read replica) for what only chooses what to ask the store: Apple's transactions to look up.
     * A transaction a moment too new to be there is asked at the next run; one refunded a moment ago is asked again
     * and its refund recorded once (StoreMessages dedups by key). The cursors (leases) and the Google purchases to
     * acknowledge again (an acknowledgement just written must be seen, or it is sent twice) read the primary.
     */
    private readonly readsRepo: StorePaymentsRepository,
    private readonly clients: StoreClients,
    private readonly messages: StoreMessages,
    private readonly enabledApps: (store: StoreName) => Promise<number[]>,
    private readonly options: ReconcileOptions,
    private readonly onAppError: (err: unknown, appId: number, store: StoreName) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** One run now (a run already going is joined). */
  run(): Promise<ReconcileReport> {
    return this.#runs.run(() => this.#run());
  }

  async #run(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      apple: { apps: 0, refunds: 0 },
      google: { apps: 0, refunds: 0, acknowledged: 0 },
    };
    for (const appId of await this.enabledApps('google')) {
      await this.#leased(appId, 'google', async (since) => {
        report.google.apps++;
        const found = await this.#google(appId, since);
        report.google.refunds += found.refunds;
        report.google.acknowledged += found.acknowledged;
        return found.next;
      });
    }
    for (const appId of await this.enabledApps('apple')) {
      await this.#leased(appId, 'apple', async () => {
        report.apple.apps++;
        report.apple.refunds += await this.#apple(appId);
        return null;
      });
    }
    return report;
  }

  /** Runs `poll` under the app and store's lease; its answer moves the cursor on. Errors are reported per app. */
  async #leased(appId: number, store: StoreName, poll: (since: number) => Promise<number | null>): Promise<void> {
    const now = this.now();
    const lease = Math.max(this.options.intervalMs, 10 * 60_000);
    const since = await this.repo.takeCursor(appId, store, now, now + lease, now - this.options.days * DAY_MS);
    if (since === null) return;
    let next: number | null = null;
    try {
      next = await poll(since);
    } catch (e) {
      this.onAppError(e, appId, store);
    }
    await this.repo.releaseCursor(appId, store, next, this.now());
  }

  async #google(appId: number, since: number): Promise<{ refunds: number; acknowledged: number; next: number }> {
    const started = this.now();
    const settings = await this.clients.googleSettings(appId);
    const publisher = await this.clients.googlePublisher(settings);
    if (!publisher) return { refunds: 0, acknowledged: 0, next: since };
    let refunds = 0;
    const malformed: unknown[] = [];
    const voided = await publisher.voidedPurchases(new Date(since), { onMalformed: (e) => malformed.push(e) });
    for (const e of malformed)
      await this.messages.refused('google', appId, e, JSON.stringify({ type: 'REFUND', malformed: true }), 'reconcile');
    for (const v of voided) {
      const r = await this.messages.reconciled({
        store: 'google',
        appId,
        storeKey: v.purchaseToken ?? null,
        bankTrxNo: v.transactionId,
        key: `voided:${v.purchaseToken ?? v.transactionId}`,
        excerpt: excerptOf(v),
      });
      // A refund kept for a transaction not yet submitted (trxNo null) refunds no order.
      if (r.outcome === 'applied' && r.trxNo !== null) refunds++;
    }
    let acknowledged = 0;
    for (const row of await this.repo.unacknowledged(appId, 100)) {
      await publisher.acknowledge(row.product_id, row.store_key, String(row.trx_no));
      await this.repo.markAcknowledged('google', row.store_key);
      acknowledged++;
    }
    // Voids listed later with an earlier voidedTime than `started` were already seen; replays are duplicates anyway.
    return { refunds, acknowledged, next: started };
  }

  async #apple(appId: number): Promise<number> {
    const settings = await this.clients.appleSettings(appId);
    const api = await this.clients.appleApi(settings);
    if (!api) return 0;
    const rows = await this.readsRepo.unrefundedSince(
      appId,
      'apple',
      this.now() - this.options.days * DAY_MS,
      APPLE_LOOKUPS_PER_RUN,
    );
    // The refund lookup lists every refund of the customer: one answer covers that customer's other transactions.
    const seen = new Set<string>();
    let refunds = 0;
    for (const row of rows) {
      if (seen.has(row.store_key)) continue;
      let found: StoreRefund[];
      try {
        const malformed: unknown[] = [];
        found = await api.refundHistory(row.store_key, (e) => malformed.push(e));
        for (const e of malformed)
          await this.messages.refused(
            'apple',
            appId,
            e,
            JSON.stringify({ type: 'REFUND', lookup: row.store_key, malformed: true }),
            'reconcile',
          );
      } catch (e) {
        if (isStoreError(e, 'not_found')) continue;
        throw e;
      }
      for (const r of found) {
        if (seen.has(r.transactionId)) continue;
        seen.add(r.transactionId);
        const result = await this.messages.reconciled({
          store: 'apple',
          appId,
          storeKey: r.transactionId,
          bankTrxNo: r.transactionId,
          key: `refund:${r.transactionId}`,
          excerpt: excerptOf(r),
        });
        if (result.outcome === 'applied' && result.trxNo !== null) refunds++;
      }
    }
    return refunds;
  }

  /** The periodic job (boot.ts): a run every intervalMs, unref'd, never overlapping itself; null when off. */
  start(onError: (err: unknown) => void): NodeJS.Timeout | null {
    return this.#runs.every(this.options.intervalMs, () => this.#run(), onError);
  }
}

function excerptOf(r: StoreRefund): string {
  return JSON.stringify({
    type: 'REFUND',
    transactionId: r.transactionId,
    ...(r.productId ? { productId: r.productId } : {}),
    refundDate: r.refundDate.toISOString(),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
  });
}
