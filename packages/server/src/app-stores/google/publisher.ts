import { androidpublisher, type androidpublisher_v3 } from '@googleapis/androidpublisher';
import { StoreVerificationError } from '../errors.js';
import type { StorePurchase, StorePurchaseState, StoreRefund } from '../types.js';
import { MAX_TOKEN, int64, object, optInt, optInt64, optObject, optText, text } from '../fields.js';
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
    return this.#toPurchase(data as unknown, productId, purchaseToken);
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
      throw new StoreVerificationError('malformed', `purchase of ${productId} has no orderId`, {
        verified: true,
      });
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
    options: {
      endTime?: Date;
      maxResults?: number;
      includeSubscriptions?: boolean;
      /** A voided purchase whose fields fail their checks: given here (and skipped) instead of failing the list. */
      onMalformed?: (e: StoreVerificationError) => void;
    } = {},
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
      const page = object(data, 'voidedpurchases.list');
      const items = page.voidedPurchases ?? [];
      if (!Array.isArray(items))
        throw new StoreVerificationError('malformed', 'voidedpurchases.list: voidedPurchases is not a list', {
          verified: true,
        });
      for (const [i, item] of items.entries()) {
        try {
          out.push(toRefund(item, `voidedPurchases.${i}`));
        } catch (e) {
          // One malformed item does not hide the others' refunds: it is handed to the caller to record.
          if (!(e instanceof StoreVerificationError) || !options.onMalformed) throw e;
          options.onMalformed(e);
        }
      }
      const pagination = optObject(page, 'tokenPagination', 'voidedpurchases.list');
      token = (pagination && optText(pagination, 'nextPageToken', 'tokenPagination', MAX_TOKEN)) ?? undefined;
      if (!token) return out;
    }
  }
  /** Every field read is checked before use (fields.ts): Google's answer is trusted for who sent it, not its content. */
  #toPurchase(data: unknown, productId: string, purchaseToken: string): StorePurchase {
    const what = 'purchase';
    const p = object(data, what);
    const state = STATES[optInt(p, 'purchaseState', what, 0, 100) ?? -1];
    const purchaseTime = optInt64(p, 'purchaseTimeMillis', what);
    if (!state || !purchaseTime)
      throw new StoreVerificationError(
        'malformed',
        `unexpected purchase state ${String(p.purchaseState)} or no purchase time`,
        { verified: true },
      );
    const orderId = optText(p, 'orderId', what);
    const ownProductId = optText(p, 'productId', what);
    if (ownProductId && ownProductId !== productId)
      throw new StoreVerificationError('wrong_product', `purchase is for ${ownProductId}, not ${productId}`);
    const purchaseType = optInt(p, 'purchaseType', what, 0, 100);
    const regionCode = optText(p, 'regionCode', what, 2);
    if (regionCode !== undefined && !/^[A-Za-z]{2}$/.test(regionCode))
      throw new StoreVerificationError('malformed', 'purchase.regionCode is not an ISO 3166-1 alpha-2 code', {
        verified: true,
      });
    const quantity = optInt(p, 'quantity', what, 1, 1_000_000) ?? 1;
    const acknowledgementState = optInt(p, 'acknowledgementState', what, 0, 100);
    const consumptionState = optInt(p, 'consumptionState', what, 0, 100);
    const accountId = optText(p, 'obfuscatedExternalAccountId', what, 64);
    for (const key of ['kind', 'obfuscatedExternalProfileId', 'purchaseToken']) optText(p, key, what, MAX_TOKEN);
    optText(p, 'developerPayload', what, MAX_TOKEN);
    return {
      store: 'google',
      transactionId: orderId ?? '',
      originalTransactionId: purchaseToken,
      productId,
      appIdentifier: this.#packageName,
      // purchaseType 0: a license tester's test purchase, nothing charged.
      environment: purchaseType === 0 ? 'Sandbox' : 'Production',
      state,
      ...(regionCode ? { region: regionCode.toUpperCase() } : {}),
      purchaseDate: new Date(purchaseTime),
      quantity,
      acknowledged: acknowledgementState === 1,
      ...(consumptionState !== undefined ? { consumptionState } : {}),
      purchaseToken,
      ...(accountId ? { accountToken: accountId } : {}),
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

/** One voided purchase of voidedpurchases.list, every field read checked (fields.ts). */
function toRefund(item: unknown, what: string): StoreRefund {
  const v = object(item, what);
  const orderId = text(v, 'orderId', what);
  const voidedTime = int64(v, 'voidedTimeMillis', what);
  const purchaseToken = optText(v, 'purchaseToken', what, MAX_TOKEN);
  const purchaseTime = optInt64(v, 'purchaseTimeMillis', what);
  const reason = optInt(v, 'voidedReason', what, 0, 100);
  const source = optInt(v, 'voidedSource', what, 0, 100);
  const quantity = optInt(v, 'voidedQuantity', what, 0, 1_000_000);
  optText(v, 'kind', what);
  return {
    store: 'google',
    transactionId: orderId,
    ...(purchaseToken ? { purchaseToken } : {}),
    ...(purchaseTime !== undefined ? { purchaseDate: new Date(purchaseTime) } : {}),
    refundDate: new Date(voidedTime),
    ...(reason !== undefined ? { reason } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(quantity !== undefined ? { quantity } : {}),
  };
}
