import type client from 'prom-client';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { AppError } from '../errors/app-error.js';
import { StoreVerificationError } from '../app-stores/errors.js';
import type { StoreName, StoreNotification } from '../app-stores/index.js';
import type { ChannelMessageLog } from '../orders/payments/channel-messages.js';
import { StorePaymentsRepository, type MessageFilter, type StoreMessageRow } from './store-payments.repository.js';
import type { StoreMessageOutcome, StoreMessagesTable } from './store-payments.tables.js';

/** What a store message did, as answered to the store and recorded for operators. */
export interface MessageResult {
  outcome: StoreMessageOutcome;
  /** Why it was refused or ignored (a StoreErrorCode, or `unknown_transaction`, `already_refunded`...). */
  reason: string | null;
  trxNo: number | null;
}

/** A refund the store reported (notification or reconciliation), keyed the way store_transactions is. */
export interface StoreRefundEvent {
  store: StoreName;
  appId: number;
  /** Apple transactionId / Google purchase token. */
  storeKey: string | null;
  /** Apple transactionId / Google orderId, when the key is unknown. */
  bankTrxNo: string | null;
}

/** What applying a refund needs from the orders domain: RefundService.refund, and whether a refund order exists. */
export interface RefundOrders {
  refund(trxNo: number): Promise<unknown>;
  refunded(trxNo: number): Promise<boolean>;
}

const EXCERPT_MAX = 300;

/**
 * Store messages: App Store Server Notifications V2 and Google Play real-time developer notifications (and what the
 * reconciliation finds) turned into refunds (2.5, 4.5), each recorded with its outcome. Idempotent by the store's
 * notification id (Apple notificationUUID, Pub/Sub messageId): a replay is recorded as `duplicate` and changes
 * nothing. A refund commits before its record; a crash between the two is retried by the store and then finds the
 * order refunded (`duplicate`).
 */
export class StoreMessages {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly repo: StorePaymentsRepository,
    /** store_messages, through the channels' one message log (its metric: store_notifications_total). */
    private readonly log: ChannelMessageLog<'store_messages'>,
    private readonly orders: RefundOrders,
    private readonly isUniqueViolation: (err: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A message whose verification failed: recorded for operators (no dedup key), never applied. A store that could
   * not be reached is not a refusal: it is rethrown for a 503, so the store retries.
   */
  async refused(
    store: StoreName,
    appId: number,
    e: unknown,
    excerpt: string,
    source: StoreMessagesTable['source'] = 'push',
  ): Promise<MessageResult> {
    if (!(e instanceof StoreVerificationError) || e.retryable) throw e;
    await this.record(store, appId, source, null, { outcome: 'refused', reason: e.code, trxNo: null }, null, excerpt);
    return { outcome: 'refused', reason: e.code, trxNo: null };
  }

  /** A purchase a player submitted, refused for a reason operators should see (revoked, wrong_account, malformed). */
  async refusedSubmission(
    store: StoreName,
    appId: number,
    reason: string,
    trxNo: number,
    excerpt: string,
  ): Promise<void> {
    await this.record(store, appId, 'client', null, { outcome: 'refused', reason, trxNo }, 'SUBMISSION', excerpt);
  }

  /** A verified notification: deduplicated, applied, recorded. */
  async notification(
    appId: number,
    n: StoreNotification,
    refund: () => StoreRefundEvent | { ignore: string } | null,
    /** Another type the caller handles (Apple CONSUMPTION_REQUEST, issue 27); null: ignored as before. */
    other?: () => Promise<MessageResult> | null,
  ): Promise<MessageResult> {
    return this.once(n.store, appId, 'push', n.notificationId, n.rawType, excerptOf(n), async () => {
      const handled = n.type !== 'REFUND' && other ? other() : null;
      if (handled) return handled;
      if (n.type !== 'REFUND') return { outcome: 'ignored', reason: ignoredReason(n), trxNo: null };
      const event = refund();
      if (!event) return { outcome: 'ignored', reason: 'no_transaction', trxNo: null };
      if ('ignore' in event) return { outcome: 'ignored', reason: event.ignore, trxNo: null };
      return this.applyRefund(event);
    });
  }

  /** A refund the reconciliation found: the same path as a notification's, keyed by the refunded transaction. */
  reconciled(event: StoreRefundEvent & { key: string; excerpt: string }): Promise<MessageResult> {
    return this.once(event.store, event.appId, 'reconcile', event.key, 'REFUND', event.excerpt, () =>
      this.applyRefund(event, 'reconcile'),
    );
  }

  /** The refund of the order a store transaction paid: the refund order, 2.5 and the supplement (RefundService). */
  async applyRefund(event: StoreRefundEvent, source: 'push' | 'reconcile' = 'push'): Promise<MessageResult> {
    const keyed = event.storeKey !== null || event.bankTrxNo !== null;
    // Under the lock rows of the keys the submission's payment takes too: either its transaction committed before
    // (found here, refunded below) or it waits and then finds the revocation (refused `revoked`).
    const row = await this.db.transaction().execute(async (trx) => {
      const stores = new StorePaymentsRepository(trx);
      await stores.lockKeys(event.store, [event.storeKey, event.bankTrxNo], this.now());
      const found =
        (event.storeKey && (await stores.transaction(event.store, event.storeKey))) ||
        (event.bankTrxNo && (await stores.byBankTrxNo(event.store, event.bankTrxNo))) ||
        undefined;
      // Refunded before any order knew it (a player keeps the JWS or token, asks for a refund, then submits it):
      // kept, so the submission is refused (issue 27, docs/stores.md "Revocation").
      if (!found && keyed)
        await stores.insertRevocation({
          store: event.store,
          store_key: (event.storeKey ?? event.bankTrxNo)!,
          app_id: event.appId,
          bank_trx_no: event.bankTrxNo,
          source,
          created_at: this.now(),
        });
      return found;
    });
    if (!row && keyed) return { outcome: 'applied', reason: 'revoked_before_submission', trxNo: null };
    if (!row || row.app_id !== event.appId) return { outcome: 'ignored', reason: 'unknown_transaction', trxNo: null };
    try {
      await this.orders.refund(row.trx_no);
    } catch (e) {
      if (!(e instanceof AppError && e.reason === 'REFUND_NOT_ALLOWED')) throw e;
      // A supplement payment is not refunded (spec 6 refunds payments); operators see it.
      if (!(await this.orders.refunded(row.trx_no)))
        return { outcome: 'ignored', reason: 'not_refundable', trxNo: row.trx_no };
      // Refunded before (another transaction of a merged receipt, or a delivery whose record was lost).
      await this.repo.markRefunded(row.trx_no, this.now());
      return { outcome: 'duplicate', reason: 'already_refunded', trxNo: row.trx_no };
    }
    await this.repo.markRefunded(row.trx_no, this.now());
    return { outcome: 'applied', reason: null, trxNo: row.trx_no };
  }

  private async once(
    store: StoreName,
    appId: number,
    source: StoreMessagesTable['source'],
    key: string,
    type: string,
    excerpt: string,
    apply: () => Promise<MessageResult>,
  ): Promise<MessageResult> {
    if (await this.log.byKey(store, appId, key)) {
      // The reconciliation sees the same refunds run after run: only a store's replay is worth a record.
      if (source === 'reconcile') return { outcome: 'duplicate', reason: 'replayed', trxNo: null };
      const replay: MessageResult = { outcome: 'duplicate', reason: 'replayed', trxNo: null };
      await this.record(store, appId, source, key, replay, type, excerpt, false);
      return replay;
    }
    const result = await apply();
    // A store's delivery that found the refund already made does not claim the key: the delivery that made it does
    // (it may be recording at this moment), and a later replay finds the order refunded again. The reconciliation's
    // keys are its own (one instance at a time): it records its find once.
    const claim = result.outcome !== 'duplicate' || source === 'reconcile';
    try {
      await this.record(store, appId, source, key, result, type, excerpt, claim);
    } catch (e) {
      if (!this.isUniqueViolation(e)) throw e;
      // The same message delivered twice at once: the other delivery's record holds the key.
      const replay: MessageResult = { outcome: 'duplicate', reason: 'replayed', trxNo: result.trxNo };
      await this.record(store, appId, source, key, replay, type, excerpt, false);
      return replay;
    }
    return result;
  }

  private async record(
    store: StoreName,
    appId: number,
    source: StoreMessagesTable['source'],
    notificationId: string | null,
    result: MessageResult,
    type: string | null,
    excerpt: string,
    keyed = false,
  ): Promise<void> {
    await this.log.record({
      app_id: appId,
      store,
      source,
      notification_id: notificationId,
      dedup_key: keyed ? notificationId : null,
      type,
      outcome: result.outcome,
      error_code: result.reason,
      trx_no: result.trxNo,
      received_at: this.now(),
      excerpt: excerpt.slice(0, EXCERPT_MAX),
    });
  }

  list(f: MessageFilter): Promise<StoreMessageRow[]> {
    return this.log.list({ ...f, equal: { store: f.store, outcome: f.outcome } });
  }

  /** Registers the metric into the instance's registry (app.metrics). */
  attach(registry: client.Registry): void {
    this.log.attach(registry);
  }
}

/**
 * Why a verified message other than a refund changes nothing (docs/stores.md): REFUND_REVERSED does not un-refund
 * (the refund order and the supplement stand; operators see it), REFUND_DECLINED needs no action, CONSUMPTION_REQUEST is
 * answered only for apps whose operator recorded the studio's consent (consumption.ts), TEST and Google's purchase notifications are acknowledged (the client submits
 * purchases itself).
 */
function ignoredReason(n: StoreNotification): string {
  return n.type === 'other' ? 'not_handled' : n.type.toLowerCase();
}

/** What operators see of a message: its type and the ids it names, nothing signed or secret. */
function excerptOf(n: StoreNotification): string {
  return JSON.stringify({
    type: n.rawType,
    ...(n.subtype ? { subtype: n.subtype } : {}),
    ...(n.environment ? { environment: n.environment } : {}),
    ...(n.transaction ? { transactionId: n.transaction.transactionId, productId: n.transaction.productId } : {}),
    ...(n.orderId ? { orderId: n.orderId } : {}),
    ...(n.productId ? { productId: n.productId } : {}),
  });
}
