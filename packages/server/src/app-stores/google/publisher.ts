import { androidpublisher, type androidpublisher_v3 } from '@googleapis/androidpublisher';
import { StoreVerificationError } from '../errors.js';
import type { StorePurchase, StorePurchaseState, StoreRefund } from '../types.js';
import { GOOGLE_TOKEN_URL, serviceAccountClient, type GoogleServiceAccountKey } from './auth.js';

export interface GooglePublisherConfig {
  /** The app's package name (Play Console). */
  packageName: string;
  /** The service account's JSON key (object or text); the account needs the Play Console financial permissions. */
  serviceAccount: GoogleServiceAccountKey | string;
  /** Default Google's; a loopback server in tests. */
  tokenUrl?: string;
  /** Android Publisher API root, default https://androidpublisher.googleapis.com/; a loopback server in tests. */
  rootUrl?: string;
}

const STATES: Record<number, StorePurchaseState> = { 0: 'purchased', 1: 'cancelled', 2: 'pending' };

/**
 * One-time products through the Android Publisher API v3 (@googleapis/androidpublisher): purchases.products.get and
 * acknowledge, voidedpurchases.list; the service account signs in through google-auth-library.
 */
export class GooglePublisher {
  readonly #api: androidpublisher_v3.Androidpublisher;
  readonly #packageName: string;
  readonly #tokenUrl: string | undefined;

  constructor(config: GooglePublisherConfig) {
    this.#packageName = config.packageName;
    this.#tokenUrl = config.tokenUrl;
    const auth = serviceAccountClient(config.serviceAccount, config.tokenUrl ? { tokenUrl: config.tokenUrl } : {});
    this.#api = androidpublisher({
      version: 'v3',
      auth,
      ...(config.rootUrl ? { rootUrl: config.rootUrl.endsWith('/') ? config.rootUrl : `${config.rootUrl}/` } : {}),
      retry: false,
    });
  }

  /** The purchase as Google reports it, whatever its state. */
  async getPurchase(productId: string, purchaseToken: string): Promise<StorePurchase> {
    let data: androidpublisher_v3.Schema$ProductPurchase;
    try {
      ({ data } = await this.#api.purchases.products.get({
        packageName: this.#packageName,
        productId,
        token: purchaseToken,
      }));
    } catch (e) {
      throw this.#apiError(e, 'purchases.products.get');
    }
    return this.#toPurchase(data, productId, purchaseToken);
  }

  /** The purchase, only if it is paid (purchaseState 0): pending and cancelled purchases are refused. */
  async verifyPurchase(productId: string, purchaseToken: string): Promise<StorePurchase> {
    const purchase = await this.getPurchase(productId, purchaseToken);
    if (purchase.state === 'pending')
      throw new StoreVerificationError(
        'purchase_pending',
        `purchase of ${productId} is pending: the buyer has not paid yet`,
      );
    if (purchase.state === 'cancelled')
      throw new StoreVerificationError('purchase_cancelled', `purchase of ${productId} was cancelled`);
    if (!purchase.transactionId)
      throw new StoreVerificationError('malformed', `purchase of ${productId} has no orderId`);
    return purchase;
  }

  /** Acknowledge a purchase (Google refunds one left unacknowledged for three days). */
  async acknowledge(productId: string, purchaseToken: string, developerPayload?: string): Promise<void> {
    try {
      await this.#api.purchases.products.acknowledge({
        packageName: this.#packageName,
        productId,
        token: purchaseToken,
        requestBody: developerPayload ? { developerPayload } : {},
      });
    } catch (e) {
      throw this.#apiError(e, 'purchases.products.acknowledge');
    }
  }

  /**
   * Voided (refunded, charged back, revoked) purchases since `startTime` (Google keeps 30 days), every page;
   * one-time products only unless `includeSubscriptions`.
   */
  async voidedPurchases(
    startTime: Date,
    options: { endTime?: Date; maxResults?: number; includeSubscriptions?: boolean } = {},
  ): Promise<StoreRefund[]> {
    const out: StoreRefund[] = [];
    let token: string | undefined;
    for (;;) {
      let data: androidpublisher_v3.Schema$VoidedPurchasesListResponse;
      try {
        ({ data } = await this.#api.purchases.voidedpurchases.list({
          packageName: this.#packageName,
          startTime: String(startTime.getTime()),
          ...(options.endTime ? { endTime: String(options.endTime.getTime()) } : {}),
          ...(options.maxResults ? { maxResults: options.maxResults } : {}),
          ...(options.includeSubscriptions ? { type: 1 } : {}),
          ...(token ? { token } : {}),
        }));
      } catch (e) {
        throw this.#apiError(e, 'voidedpurchases.list');
      }
      for (const v of data.voidedPurchases ?? []) {
        if (!v.orderId || !v.voidedTimeMillis)
          throw new StoreVerificationError('malformed', 'voided purchase without orderId or time');
        out.push({
          store: 'google',
          transactionId: v.orderId,
          ...(v.purchaseToken ? { purchaseToken: v.purchaseToken } : {}),
          ...(v.purchaseTimeMillis ? { purchaseDate: new Date(Number(v.purchaseTimeMillis)) } : {}),
          refundDate: new Date(Number(v.voidedTimeMillis)),
          ...(v.voidedReason != null ? { reason: v.voidedReason } : {}),
          ...(v.voidedSource != null ? { source: v.voidedSource } : {}),
          ...(v.voidedQuantity != null ? { quantity: v.voidedQuantity } : {}),
        });
      }
      token = data.tokenPagination?.nextPageToken ?? undefined;
      if (!token) return out;
    }
  }

  #toPurchase(p: androidpublisher_v3.Schema$ProductPurchase, productId: string, purchaseToken: string): StorePurchase {
    const state = STATES[p.purchaseState ?? -1];
    if (!state || !p.purchaseTimeMillis)
      throw new StoreVerificationError(
        'malformed',
        `unexpected purchase state ${String(p.purchaseState)} or no purchase time`,
      );
    if (p.productId && p.productId !== productId)
      throw new StoreVerificationError('wrong_product', `purchase is for ${p.productId}, not ${productId}`);
    return {
      store: 'google',
      transactionId: p.orderId ?? '',
      originalTransactionId: purchaseToken,
      productId,
      appIdentifier: this.#packageName,
      // purchaseType 0: a license tester's test purchase, nothing charged.
      environment: p.purchaseType === 0 ? 'Sandbox' : 'Production',
      state,
      ...(p.regionCode ? { region: p.regionCode.toUpperCase() } : {}),
      purchaseDate: new Date(Number(p.purchaseTimeMillis)),
      quantity: p.quantity ?? 1,
      acknowledged: p.acknowledgementState === 1,
      ...(p.consumptionState != null ? { consumptionState: p.consumptionState } : {}),
      purchaseToken,
      ...(p.obfuscatedExternalAccountId ? { accountToken: p.obfuscatedExternalAccountId } : {}),
    };
  }

  #apiError(e: unknown, what: string): StoreVerificationError {
    const err = e as { status?: number; response?: { status?: number }; config?: { url?: unknown }; message?: string };
    const status = err.status ?? err.response?.status;
    const url = String(err.config?.url ?? '');
    const detail = `${what}: ${err.message ?? String(e)}`;
    const tokenUrls = [GOOGLE_TOKEN_URL, ...(this.#tokenUrl ? [new URL(this.#tokenUrl).href] : [])];
    if (tokenUrls.includes(url) || status === 401 || status === 403)
      return new StoreVerificationError('store_auth_failed', detail, { cause: e });
    if (status === 404 || status === 410) return new StoreVerificationError('not_found', detail, { cause: e });
    if (status === 400) return new StoreVerificationError('malformed', detail, { cause: e });
    return new StoreVerificationError('store_unavailable', detail, { cause: e });
  }
}
