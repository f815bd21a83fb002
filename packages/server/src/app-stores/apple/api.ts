import {
  APIException,
  AppStoreServerAPIClient,
  Environment,
  type ConsumptionRequest,
} from '@apple/app-store-server-library';
import type { URLSearchParams } from 'node:url';
import { StoreVerificationError } from '../errors.js';
import type { StoreNotification, StorePurchase, StoreRefund } from '../types.js';
import type { AppleEnvironment, AppleVerifier } from './verify.js';

export interface AppleApiConfig {
  /** App Store Connect > Users and Access > Integrations > In-App Purchase: issuer id, key id and the .p8 key. */
  issuerId: string;
  keyId: string;
  /** The .p8 file's content (PKCS#8 PEM, ES256). */
  privateKey: string;
  bundleId: string;
  environment: AppleEnvironment;
  /** Default Apple's host for the environment; a loopback server in tests. */
  baseUrl?: string;
}

/**
 * Apple's AppStoreServerAPIClient with its base URL overridable: the library picks Apple's host from the
 * environment and keeps it private, but routes every call through the protected `makeFetchRequest` (the hook its own
 * tests override), so that one method is replaced by a fetch to `baseUrl`. Signing the bearer JWT, the paths, the
 * response validation and APIException stay the library's.
 */
class BaseUrlClient extends AppStoreServerAPIClient {
  readonly #baseUrl: string;

  constructor(config: AppleApiConfig & { baseUrl: string }) {
    super(
      config.privateKey,
      config.keyId,
      config.issuerId,
      config.bundleId,
      config.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX,
    );
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
  }

  protected override async makeFetchRequest(
    path: string,
    parsedQueryParameters: URLSearchParams,
    method: string,
    requestBody: string | Buffer | undefined,
    headers: { [key: string]: string },
  ): Promise<never> {
    const response = await fetch(`${this.#baseUrl}${path}?${parsedQueryParameters.toString()}`, {
      method,
      headers,
      ...(requestBody !== undefined ? { body: requestBody } : {}),
    });
    // The library reads only ok, status and json() of node-fetch's Response, which the WHATWG Response has too.
    return response as never;
  }
}

export function createAppleApiClient(config: AppleApiConfig): AppStoreServerAPIClient {
  if (config.environment !== 'Production' && config.environment !== 'Sandbox')
    throw new Error(`Apple environment must be Production or Sandbox, not ${String(config.environment)}`);
  if (config.baseUrl) return new BaseUrlClient({ ...config, baseUrl: config.baseUrl });
  return new AppStoreServerAPIClient(
    config.privateKey,
    config.keyId,
    config.issuerId,
    config.bundleId,
    config.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX,
  );
}

function apiError(e: unknown, what: string): StoreVerificationError {
  if (e instanceof StoreVerificationError) return e;
  if (e instanceof APIException) {
    const detail = `${what}: App Store Server API answered ${e.httpStatusCode}${e.apiError ? ` (${e.apiError})` : ''}${e.errorMessage ? ` ${e.errorMessage}` : ''}`;
    if (e.httpStatusCode === 401 || e.httpStatusCode === 403)
      return new StoreVerificationError('store_auth_failed', detail, { cause: e });
    if (e.httpStatusCode === 404) return new StoreVerificationError('not_found', detail, { cause: e });
    if (e.httpStatusCode >= 400 && e.httpStatusCode < 500 && e.httpStatusCode !== 429)
      return new StoreVerificationError('malformed', detail, { cause: e });
  }
  return new StoreVerificationError('store_unavailable', `${what}: ${String(e)}`, { cause: e });
}

/**
 * The App Store Server API calls reconciliation needs, with every signed item verified by the AppleVerifier
 * (the API's answers are signed like notifications) and normalized.
 */
export class AppleStoreApi {
  constructor(
    private readonly client: AppStoreServerAPIClient,
    private readonly verifier: AppleVerifier,
  ) {}

  /**
   * Send Consumption Information (v2) for the transaction of a CONSUMPTION_REQUEST (issue 27). Resolves on Apple's
   * 202; refusals are StoreVerificationErrors (`malformed` for a 4xx Apple will refuse again, `store_unavailable`
   * for what is worth retrying), with `status` the HTTP status when Apple answered.
   */
  async sendConsumption(transactionId: string, request: ConsumptionRequest): Promise<void> {
    try {
      await this.client.sendConsumptionInformation(transactionId, request);
    } catch (e) {
      const err = apiError(e, 'send consumption information');
      throw Object.assign(err, { status: e instanceof APIException ? e.httpStatusCode : null });
    }
  }

  /** Refunded transactions of the customer of `anyTransactionId` (Get Refund History v2), every page. */
  async refundHistory(
    anyTransactionId: string,
    /** A signed item whose fields fail their checks: given here (and skipped) instead of failing the lookup. */
    onMalformed?: (e: StoreVerificationError) => void,
  ): Promise<StoreRefund[]> {
    const refunds: StoreRefund[] = [];
    const pages = everyPage(
      'refund lookup',
      (revision) => this.client.getRefundHistory(anyTransactionId, revision),
      (page) => (page.hasMore ? page.revision : null),
    );
    for await (const page of pages)
      for (const signed of page.signedTransactions ?? []) {
        try {
          refunds.push(toRefund(await this.verifier.verifyTransaction(signed)));
        } catch (e) {
          if (!(e instanceof StoreVerificationError) || e.retryable || !onMalformed) throw e;
          onMalformed(e);
        }
      }
    return refunds;
  }

  /**
   * Notifications Apple sent (or tried to) between two dates (Get Notification History, at most the last 180
   * days), every page, each verified; `onlyFailures` lists those our endpoint did not acknowledge.
   */
  async notificationHistory(
    start: Date,
    end: Date,
    filter: { transactionId?: string; notificationType?: string; onlyFailures?: boolean } = {},
  ): Promise<StoreNotification[]> {
    const out: StoreNotification[] = [];
    const pages = everyPage(
      'notification history',
      (token) =>
        this.client.getNotificationHistory(token, {
          startDate: start.getTime(),
          endDate: end.getTime(),
          ...(filter.transactionId ? { transactionId: filter.transactionId } : {}),
          ...(filter.notificationType ? { notificationType: filter.notificationType as never } : {}),
          ...(filter.onlyFailures ? { onlyFailures: true } : {}),
        }),
      (page) => (page.hasMore ? page.paginationToken : null),
    );
    for await (const page of pages)
      for (const item of page.notificationHistory ?? [])
        if (item.signedPayload) out.push(await this.verifier.verifyNotification(item.signedPayload));
    return out;
  }
}

/**
 * Every page of a paged App Store Server API list: `call` with the token the last page gave (null first) until a
 * page gives none (no more). A failed call is the API's error about `what`.
 */
async function* everyPage<P>(
  what: string,
  call: (token: string | null) => Promise<P>,
  next: (page: P) => string | null | undefined,
): AsyncGenerator<P> {
  let token: string | null = null;
  for (;;) {
    let page: P;
    try {
      page = await call(token);
    } catch (e) {
      throw apiError(e, what);
    }
    yield page;
    token = next(page) || null;
    if (!token) return;
  }
}

function toRefund(p: StorePurchase): StoreRefund {
  return {
    store: 'apple',
    transactionId: p.transactionId,
    originalTransactionId: p.originalTransactionId,
    productId: p.productId,
    purchaseDate: p.purchaseDate,
    // Refund history lists refunded transactions only; each carries its revocation date.
    refundDate: p.revocationDate ?? p.purchaseDate,
    ...(p.revocationReason !== undefined ? { reason: p.revocationReason } : {}),
    quantity: p.quantity,
  };
}
