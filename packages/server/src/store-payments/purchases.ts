import { timingSafeEqual } from 'node:crypto';
import { storeAccountToken } from '@game-platform/sdk';
import type { AccountBinding } from '../orders/catalogue/settings.js';
import { StoreVerificationError } from '../app-stores/errors.js';
import type { StorePurchase, StoreName } from '../app-stores/index.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { Channel, OrderStatus } from '../orders/enums.js';
import { checkCurrency, toMinor } from '../orders/money.js';
import type { ClientReport } from '../orders/payments/channels/channel.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ItemRow, OrderRow } from '../orders/orders.repository.js';
import type { Order } from '../orders/orders.view.js';
import { StorePaymentsRepository } from './store-payments.repository.js';
import type { StoreClients } from './store-clients.js';

/**
 * Store refusals of a submission recorded for operators, with a store payload whose fields failed their checks after
 * verification (the others are the client's mistakes, answered only).
 */
const RECORDED = ['revoked', 'wrong_account'];

export interface SubmissionRefusal {
  store: StoreName;
  appId: number;
  trxNo: number;
  reason: string;
  excerpt: string;
}

/** Most signed transactions one merged iOS receipt may hold. */
export const MAX_MERGED_TRANSACTIONS = 10;

export interface GooglePurchaseInput {
  packageName: string;
  productId: string;
  purchaseToken: string;
  /** Client-reported (2.4): what Play Billing showed the player; Google's purchase record carries no price. */
  clientAmount?: number | string;
  clientCurrency?: string;
}

/** The caller of a purchase submission: the player of the MAC token. */
export interface Buyer {
  appId: number;
  userId: string;
}

/**
 * Store purchases paying orders (2.4): the client submits the store's proof for an order awaiting payment, the store
 * confirms it (Apple's signed data, Google's Android Publisher API), and the order is paid with the client fields
 * from the store's record, in one transaction with the record of the store transactions that paid it.
 */
export class StorePurchases {
  constructor(
    private readonly repo: StorePaymentsRepository,
    private readonly orders: OrderService,
    private readonly clients: StoreClients,
    private readonly isUniqueViolation: (err: unknown) => boolean,
    /** A Google acknowledgement that failed after the payment (the reconciliation retries it). */
    private readonly onAckError: (err: unknown, trxNo: number) => void,
    /** The app's accountBinding setting (order settings). */
    private readonly binding: (appId: number) => Promise<AccountBinding>,
    /** Records a refusal operators should see (store_messages, source `client`): malformed, revoked, wrong_account. */
    private readonly recordRefusal: (r: SubmissionRefusal) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records the refusal when it is one operators should see, then answers the client's error. */
  private async refuse(store: StoreName, order: OrderRow, e: unknown, field: string): Promise<AppError> {
    const err = refusal(e, field);
    const storeError = (err.data as { storeError?: string } | undefined)?.storeError;
    const verifiedMalformed = e instanceof StoreVerificationError && e.verified;
    if (storeError && (RECORDED.includes(storeError) || verifiedMalformed))
      await this.recordRefusal({
        store,
        appId: order.app_id,
        trxNo: order.trx_no,
        reason: storeError,
        excerpt: JSON.stringify({ field, storeError, detail: err.message.slice(0, 200) }),
      });
    return err;
  }

  /** StoreKit 2 signed transactions for an App Store order: one pays it; several are a merged receipt (2.4 rules 3, 9). */
  async apple(buyer: Buyer, trxNo: number, signedTransactions: string[]): Promise<Order> {
    if (signedTransactions.length < 1 || signedTransactions.length > MAX_MERGED_TRANSACTIONS)
      throw invalidParameter('signedTransactions', `holds 1 to ${MAX_MERGED_TRANSACTIONS} signed transactions`);
    const { order, item } = await this.payable(buyer, trxNo, Channel.IOS_STORE);
    const verifier = await this.clients.appleVerifier(await this.clients.appleSettings(buyer.appId));
    const purchases: StorePurchase[] = [];
    for (const [i, jws] of signedTransactions.entries()) {
      try {
        purchases.push(await verifier.verifyTransaction(jws));
      } catch (e) {
        throw await this.refuse('apple', order, e, `signedTransactions.${i}`);
      }
    }
    const ids = purchases.map((p) => p.transactionId);
    if (new Set(ids).size !== ids.length)
      throw invalidParameter('signedTransactions', 'lists the same transaction twice');
    for (const [i, p] of purchases.entries()) {
      await this.checkAccount('apple', order, p.accountToken, `signedTransactions.${i}`);
      // A refund reported before the submission is checked in the payment's transaction (pay).
      if (p.revocationDate)
        throw await this.refuse(
          'apple',
          order,
          new StoreVerificationError(
            'revoked',
            `transaction ${p.transactionId}: the App Store refunded or revoked it on ${p.revocationDate.toISOString()}`,
          ),
          `signedTransactions.${i}`,
        );
    }
    for (const p of purchases) this.checkProduct(p, item);
    checkQuantity(purchases, item);
    const merged = purchases.length > 1;
    return this.pay(order, 'apple', purchases, {
      bankTrxNo: ids.join(','),
      client: appleClientReport(purchases),
      merged,
      acknowledged: true,
    });
  }

  /** A Google Play purchase token for a Google Play order; acknowledged once the order is paid. */
  async google(buyer: Buyer, trxNo: number, input: GooglePurchaseInput): Promise<Order> {
    const { order, item } = await this.payable(buyer, trxNo, Channel.ANDROID_STORE);
    const settings = await this.clients.googleSettings(buyer.appId);
    if (input.packageName !== settings.packageName)
      throw storeRefused('wrong_package', `packageName is not this app's package (${settings.packageName})`);
    if (input.productId !== item.channel_sku_code)
      throw storeRefused('wrong_product', `productId is not the order's product (${item.channel_sku_code})`);
    const publisher = await this.clients.googlePublisher(settings);
    if (!publisher)
      throw new AppError('STORE_UNAVAILABLE', `app ${buyer.appId} has no Google Play service account configured`);
    await this.refuseUsed('google', [input.purchaseToken], buyer.appId);
    let purchase: StorePurchase;
    try {
      purchase = await publisher.verifyPurchase(input.productId, input.purchaseToken);
    } catch (e) {
      throw await this.refuse('google', order, e, 'purchaseToken');
    }
    await this.checkAccount('google', order, purchase.accountToken, 'purchaseToken');
    checkQuantity([purchase], item);
    const client = googleClientReport(input, purchase.region ?? null);
    const paid = await this.pay(order, 'google', [purchase], {
      bankTrxNo: purchase.transactionId,
      client,
      merged: false,
      acknowledged: purchase.acknowledged === true,
    });
    if (!purchase.acknowledged) {
      try {
        await publisher.acknowledge(input.productId, input.purchaseToken, String(order.trx_no));
        await this.repo.markAcknowledged('google', input.purchaseToken);
      } catch (e) {
        // Paid either way: the reconciliation acknowledges it later (Google refunds after three days without).
        this.onAckError(e, order.trx_no);
      }
    }
    return paid;
  }

  /** The caller's order of this store channel, awaiting payment, with its one line (store orders hold one product). */
  private async payable(buyer: Buyer, trxNo: number, channel: number): Promise<{ order: OrderRow; item: ItemRow }> {
    const order = await this.orders.row(trxNo).catch((e: unknown) => {
      if (e instanceof AppError && e.reason === 'NOT_FOUND') return undefined;
      throw e;
    });
    if (!order || order.app_id !== buyer.appId || order.user_id !== buyer.userId)
      throw new AppError('NOT_FOUND', `order ${trxNo} is not an order of this player`);
    if (order.channel !== channel)
      throw invalidParameter('trxNo', `order ${trxNo} is a channel ${order.channel} order, not channel ${channel}`);
    if (order.status !== OrderStatus.AWAITING_PAYMENT)
      throw new AppError('ORDER_STATE', `order ${trxNo} is not awaiting payment (status ${order.status})`, {
        data: { trxNo, status: order.status, requested: OrderStatus.SUCCEEDED },
      });
    const [item] = await this.orders.items(trxNo);
    return { order, item: item! };
  }

  /**
   * Purchases bound to their buyer (issue 27): the transaction's account token (Apple appAccountToken, Google
   * obfuscatedExternalAccountId) must be the submitting player's, per the app's accountBinding: `required` refuses a
   * transaction without it, `when_present` only one with another token, `off` checks nothing.
   */
  private async checkAccount(store: StoreName, order: OrderRow, token: string | undefined, field: string) {
    const binding = await this.binding(order.app_id);
    if (binding === 'off') return;
    if (token === undefined && binding === 'when_present') return;
    const expected = storeAccountToken(order.app_id, order.user_id);
    if (token !== undefined && sameToken(token.toLowerCase(), expected)) return;
    const why =
      token === undefined
        ? 'the purchase carries no account token and this app requires one'
        : "the purchase's account token is not this player's";
    throw await this.refuse(store, order, new StoreVerificationError('wrong_account', why), field);
  }

  private checkProduct(p: StorePurchase, item: ItemRow): void {
    if (p.productId !== item.channel_sku_code)
      throw storeRefused(
        'wrong_product',
        `transaction ${p.transactionId} is for product ${p.productId}, the order's is ${item.channel_sku_code}`,
      );
  }

  /** Refuses store keys that already paid an order, naming it when it is this app's. */
  private async refuseUsed(store: StoreName, keys: string[], appId: number): Promise<void> {
    for (const key of keys) {
      const used = await this.repo.transaction(store, key);
      if (used) throw usedError(used.app_id === appId ? used.trx_no : null);
    }
  }

  private async pay(
    order: OrderRow,
    store: StoreName,
    purchases: StorePurchase[],
    how: { bankTrxNo: string; client: ClientReport | null; merged: boolean; acknowledged: boolean },
  ): Promise<Order> {
    const keys = purchases.map((p) => (store === 'google' ? p.purchaseToken! : p.transactionId));
    if (store === 'apple') await this.refuseUsed(store, keys, order.app_id);
    const now = this.now();
    try {
      return await this.orders.applyChannelEvent({
        kind: 'paid',
        trxNo: order.trx_no,
        bankTrxNo: how.bankTrxNo,
        client: how.client,
        mergedReceipts: how.merged,
        alsoWrite: async (trx) => {
          const stores = new StorePaymentsRepository(trx);
          // A refund reported before the submission refuses it. Under the lock rows its refund takes too, so a refund
          // racing this submission either is seen here or sees this payment (notifications.ts applyRefund): 2.4
          // then 2.5, never a payment whose refund was kept as a revocation (docs/stores.md "Revocation").
          await stores.lockKeys(store, keys.concat(purchases.map((p) => p.transactionId)), now);
          for (const [i, p] of purchases.entries())
            if (await stores.revoked(store, order.app_id, keys[i]!, p.transactionId))
              throw new RevokedBeforeSubmission(i);
          await stores.insertTransactions(
            purchases.map((p, i) => ({
              store,
              store_key: keys[i]!,
              app_id: order.app_id,
              trx_no: order.trx_no,
              bank_trx_no: p.transactionId,
              product_id: p.productId,
              acknowledged: how.acknowledged ? 1 : 0,
              refunded_at: null,
              created_at: now,
            })),
          );
        },
      });
    } catch (e) {
      if (e instanceof RevokedBeforeSubmission) {
        const p = purchases[e.index]!;
        const why =
          store === 'apple'
            ? `transaction ${p.transactionId}: the App Store reported its refund before it was submitted`
            : 'Google Play voided this purchase before it was submitted';
        const field = store === 'apple' ? `signedTransactions.${e.index}` : 'purchaseToken';
        throw await this.refuse(store, order, new StoreVerificationError('revoked', why), field);
      }
      // Another request paid with the same transaction meanwhile: the key let one through.
      if (this.isUniqueViolation(e)) throw usedError(null);
      throw e;
    }
  }
}

/** A refund of the purchase at `index` was kept before its submission: rolls the payment back. */
class RevokedBeforeSubmission extends Error {
  constructor(readonly index: number) {
    super('revoked before submission');
  }
}

/** Constant-time comparison of two tokens (their lengths are not secret). */
function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function usedError(trxNo: number | null): AppError {
  return new AppError(
    'STORE_TRANSACTION_USED',
    trxNo === null
      ? 'this store transaction already paid an order'
      : `this store transaction already paid order ${trxNo}`,
    { data: { trxNo } },
  );
}

function storeRefused(storeError: string, detail: string): AppError {
  return new AppError('STORE_PURCHASE_REFUSED', `${storeError}: ${detail}`, { data: { storeError } });
}

/** A store adapter's refusal as the client's answer: retryable ones 502, the others 400 naming the check. */
function refusal(e: unknown, field: string): AppError {
  if (!(e instanceof StoreVerificationError)) return e as AppError;
  if (e.code === 'store_unavailable' || e.code === 'store_auth_failed')
    return new AppError('STORE_UNAVAILABLE', `${field}: ${e.message}`, { cause: e });
  return new AppError('STORE_PURCHASE_REFUSED', `${field}: ${e.message}`, { data: { storeError: e.code } });
}

/** The store's quantity must be the order's: a purchase of one pack does not pay for two. */
function checkQuantity(purchases: StorePurchase[], item: ItemRow): void {
  const bought = purchases.reduce((n, p) => n + p.quantity, 0);
  if (bought !== item.quantity)
    throw storeRefused(
      'wrong_quantity',
      `the store sold ${bought} of ${item.channel_sku_code}, the order is for ${item.quantity}`,
    );
}

/** 2.4 client fields from Apple's transactions: the sum of their prices when all carry one currency. */
function appleClientReport(purchases: StorePurchase[]): ClientReport | null {
  const currency = purchases[0]!.currency;
  if (!currency || purchases.some((p) => p.currency !== currency || p.priceMinor === undefined)) return null;
  return {
    amountMinor: purchases.reduce((n, p) => n + p.priceMinor!, 0),
    currency,
    region: purchases.length === 1 ? (purchases[0]!.region ?? null) : null,
  };
}

/** 2.4 client fields of a Google purchase: the amount the client reports, the region Google reports. */
function googleClientReport(input: GooglePurchaseInput, region: string | null): ClientReport | null {
  if (input.clientAmount === undefined && input.clientCurrency === undefined) return null;
  if (input.clientAmount === undefined) throw invalidParameter('clientAmount', 'is required with clientCurrency');
  if (input.clientCurrency === undefined) throw invalidParameter('clientCurrency', 'is required with clientAmount');
  const currency = checkCurrency('clientCurrency', input.clientCurrency);
  return { amountMinor: toMinor('clientAmount', input.clientAmount, currency), currency, region };
}
