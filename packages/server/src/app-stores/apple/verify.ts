import {
  Environment,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
  type JWSTransactionDecodedPayload,
  type ResponseBodyV2DecodedPayload,
} from '@apple/app-store-server-library';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { exponentOf } from '../../orders/money.js';
import { alpha3ToAlpha2 } from '../countries.js';
import { StoreVerificationError } from '../errors.js';
import { millis, object, optInt, optMillis, optObject, optText, text } from '../fields.js';
import type { StoreNotification, StoreNotificationType, StorePurchase } from '../types.js';
import { appleRootCertificates } from './roots.js';

export type AppleEnvironment = 'Production' | 'Sandbox';

export interface AppleVerifierConfig {
  /** The app's bundle identifier (App Store Connect). */
  bundleId: string;
  /** The app's Apple ID (App Store Connect, numeric); required in Production. */
  appAppleId?: number;
  /** Only Production and Sandbox: the library skips signature checks for Xcode and LocalTesting, so they are refused. */
  environment: AppleEnvironment;
  /** Trusted roots, DER or PEM. Default: Apple Root CA - G3 shipped with the package. */
  rootCertificates?: Buffer[];
  /**
   * OCSP revocation checks of the chain and validity at the current time (default true). Off, the certificates are
   * checked at the payload's `signedDate` and nothing is fetched: tests turn it off (OCSP would reach the network).
   */
  enableOnlineChecks?: boolean;
}

const APPLE_TYPES = new Set<StoreNotificationType>([
  'REFUND',
  'REFUND_REVERSED',
  'REFUND_DECLINED',
  'CONSUMPTION_REQUEST',
  'TEST',
]);

/**
 * Verifies StoreKit 2 signed transactions and App Store Server Notifications V2 with Apple's SignedDataVerifier
 * (chain to the configured roots, Apple's marker extensions, ES256 signature, bundle id, app Apple id, environment),
 * and maps them to the platform's normalized types. Every refusal is a StoreVerificationError naming the check.
 */
export class AppleVerifier {
  readonly #verifier: SignedDataVerifier;
  readonly #config: AppleVerifierConfig;

  constructor(config: AppleVerifierConfig) {
    if (config.environment !== 'Production' && config.environment !== 'Sandbox')
      throw new Error(`Apple environment must be Production or Sandbox, not ${String(config.environment)}`);
    if (config.environment === 'Production' && config.appAppleId === undefined)
      throw new Error('appAppleId is required in the Production environment');
    const roots = config.rootCertificates ?? appleRootCertificates();
    if (roots.length === 0) throw new Error('at least one root certificate is required');
    this.#config = config;
    this.#verifier = new SignedDataVerifier(
      roots,
      config.enableOnlineChecks ?? true,
      config.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX,
      config.bundleId,
      config.appAppleId,
    );
  }

  /** A StoreKit 2 `signedTransactionInfo` (JWSTransaction) from a device, a notification or the API. */
  async verifyTransaction(signedTransaction: string): Promise<StorePurchase> {
    return toPurchase(await this.decodeTransaction(signedTransaction));
  }

  /** The verified payload as Apple's library decodes it, for callers that need a field the normalized type drops. */
  async decodeTransaction(signedTransaction: string): Promise<JWSTransactionDecodedPayload> {
    checkShape(signedTransaction);
    try {
      return await this.#verifier.verifyAndDecodeTransaction(signedTransaction);
    } catch (e) {
      throw this.#refusal(e, signedTransaction, 'transaction');
    }
  }

  /** The `signedPayload` of an App Store Server Notification V2 (the body of Apple's POST, `{"signedPayload": ...}`). */
  async verifyNotification(signedPayload: string): Promise<StoreNotification> {
    checkShape(signedPayload);
    let decoded: ResponseBodyV2DecodedPayload;
    try {
      decoded = await this.#verifier.verifyAndDecodeNotification(signedPayload);
    } catch (e) {
      throw this.#refusal(e, signedPayload, 'notification');
    }
    const what = 'notification';
    const top = object(decoded, what);
    const notificationUUID = text(top, 'notificationUUID', what, 64);
    const rawType = text(top, 'notificationType', what, 64);
    const subtype = optText(top, 'subtype', what, 64);
    optText(top, 'version', what, 16);
    const signedDate = optMillis(top, 'signedDate', what);
    const data = optObject(top, 'data', what);
    const summary = optObject(top, 'summary', what);
    const bundleId =
      (data && optText(data, 'bundleId', `${what}.data`)) ??
      (summary && optText(summary, 'bundleId', `${what}.summary`)) ??
      this.#config.bundleId;
    if (data) {
      for (const key of ['bundleVersion', 'environment']) optText(data, key, `${what}.data`, 64);
      optInt(data, 'appAppleId', `${what}.data`);
    }
    const signedTransaction = data && optText(data, 'signedTransactionInfo', `${what}.data`, 65_536);
    const consumptionReason = data && optText(data, 'consumptionRequestReason', `${what}.data`, 64);
    return {
      store: 'apple',
      notificationId: notificationUUID,
      type: APPLE_TYPES.has(rawType as StoreNotificationType) ? (rawType as StoreNotificationType) : 'other',
      rawType,
      ...(subtype ? { subtype } : {}),
      environment: this.#config.environment,
      appIdentifier: bundleId,
      ...(signedDate !== undefined ? { eventDate: new Date(signedDate) } : {}),
      ...(consumptionReason ? { consumptionRequestReason: consumptionReason } : {}),
      ...(signedTransaction ? { transaction: await this.verifyTransaction(signedTransaction) } : {}),
    };
  }

  #refusal(e: unknown, jws: string, what: 'transaction' | 'notification'): StoreVerificationError {
    if (e instanceof StoreVerificationError) return e;
    if (!(e instanceof VerificationException))
      return new StoreVerificationError('malformed', `${what}: ${String(e)}`, { cause: e });
    const cause = e.cause;
    switch (e.status) {
      case VerificationStatus.INVALID_APP_IDENTIFIER: {
        // The library checks identifiers only after the signature and chain passed, so the payload is Apple's.
        const payload = decodeJwt(jws) as {
          bundleId?: string;
          data?: { bundleId?: string };
          summary?: { bundleId?: string };
        };
        const bundleId = payload.bundleId ?? payload.data?.bundleId ?? payload.summary?.bundleId;
        return bundleId !== this.#config.bundleId
          ? new StoreVerificationError(
              'wrong_bundle_id',
              `${what} is for bundle ${String(bundleId)}, expected ${this.#config.bundleId}`,
            )
          : new StoreVerificationError(
              'wrong_app_apple_id',
              `${what} is for another app Apple ID, expected ${String(this.#config.appAppleId)}`,
            );
      }
      case VerificationStatus.INVALID_ENVIRONMENT:
        return new StoreVerificationError(
          'wrong_environment',
          `${what} is not from the ${this.#config.environment} environment`,
        );
      case VerificationStatus.INVALID_CHAIN_LENGTH:
        return new StoreVerificationError('invalid_certificate', `${what}: the x5c chain must have 3 certificates`, {
          cause,
        });
      case VerificationStatus.INVALID_CERTIFICATE:
        return new StoreVerificationError(
          'invalid_certificate',
          `${what}: a certificate is malformed or outside its validity`,
          { cause },
        );
      case VerificationStatus.FAILURE:
        return new StoreVerificationError('malformed', `${what}: not a well-formed payload`, { cause });
      case VerificationStatus.RETRYABLE_VERIFICATION_FAILURE:
        return new StoreVerificationError('store_unavailable', `${what}: the revocation check could not be completed`, {
          cause,
        });
      case VerificationStatus.VERIFICATION_FAILURE:
      default: {
        const name = cause instanceof Error ? cause.name : undefined;
        if (name === 'TokenExpiredError' || name === 'NotBeforeError')
          return new StoreVerificationError('expired', `${what}: ${(cause as Error).message}`, { cause });
        if (name === 'JsonWebTokenError')
          return new StoreVerificationError(
            'bad_signature',
            `${what}: the signature does not match the leaf certificate`,
            { cause },
          );
        if (cause === undefined)
          return new StoreVerificationError(
            'untrusted_chain',
            `${what}: the certificate chain does not lead to a trusted Apple root`,
          );
        return new StoreVerificationError('invalid_certificate', `${what}: ${String(cause)}`, { cause });
      }
    }
  }
}

/** Refuse at once what is not a compact JWS with JSON header and payload (the library would report it as a chain failure). */
function checkShape(jws: string): void {
  try {
    if (typeof jws !== 'string' || jws.split('.').length !== 3) throw new Error('not a compact JWS');
    decodeProtectedHeader(jws);
    decodeJwt(jws);
  } catch (e) {
    throw new StoreVerificationError('malformed', 'not a compact JWS with a JSON header and payload', { cause: e });
  }
}

/** Apple's `price` is in milliunits of `currency`; to ISO 4217 minor units, exactly, or refused. */
export function milliunitsToMinor(price: number, currency: string): number {
  let exponent: number;
  try {
    exponent = exponentOf(currency);
  } catch (e) {
    throw new StoreVerificationError('malformed', `unknown currency ${currency}`, { cause: e, verified: true });
  }
  if (!Number.isSafeInteger(price) || price < 0)
    throw new StoreVerificationError('malformed', `price ${price} is not whole milliunits`, {
      verified: true,
    });
  if (exponent >= 3) return price * 10 ** (exponent - 3);
  const divisor = 10 ** (3 - exponent);
  if (price % divisor !== 0)
    throw new StoreVerificationError(
      'malformed',
      `price ${price} milliunits is not a whole number of ${currency} minor units`,
      { verified: true },
    );
  return price / divisor;
}

/**
 * The normalized purchase of a verified JWSTransaction, every field read checked first (fields.ts): Apple signs
 * what it signs, but a payload that passes verification with a field of another type or with NUL must answer 400,
 * never reach SQL. Fields the platform does not use but the fixture-built and real transactions carry (type,
 * ownership, reason, storefront id, signed and original dates) are checked too, so a malformed transaction is
 * refused whole.
 */
export function toPurchase(decoded: JWSTransactionDecodedPayload): StorePurchase {
  const what = 'transaction';
  const t = object(decoded, what);
  const transactionId = text(t, 'transactionId', what, 64);
  const originalTransactionId = text(t, 'originalTransactionId', what, 64);
  const productId = text(t, 'productId', what);
  const bundleId = text(t, 'bundleId', what);
  const purchaseDate = millis(t, 'purchaseDate', what);
  for (const key of ['type', 'inAppOwnershipType', 'transactionReason', 'storefrontId', 'webOrderLineItemId'])
    optText(t, key, what, 64);
  for (const key of ['originalPurchaseDate', 'signedDate', 'expiresDate']) optMillis(t, key, what);
  const environment = text(t, 'environment', what, 32);
  const price = optInt(t, 'price', what);
  const currency = optText(t, 'currency', what, 3);
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency))
    throw new StoreVerificationError('malformed', 'transaction.currency is not an ISO 4217 code', {
      verified: true,
    });
  const storefront = optText(t, 'storefront', what, 3);
  const region = storefront ? alpha3ToAlpha2(storefront) : undefined;
  const quantity = optInt(t, 'quantity', what, 1, 1_000_000) ?? 1;
  const revocationDate = optMillis(t, 'revocationDate', what);
  const revocationReason = optInt(t, 'revocationReason', what, 0, 1000);
  const appAccountToken = optText(t, 'appAccountToken', what, 64);
  return {
    store: 'apple',
    transactionId,
    originalTransactionId,
    productId,
    appIdentifier: bundleId,
    environment: environment === (Environment.PRODUCTION as string) ? 'Production' : 'Sandbox',
    state: 'purchased',
    ...(price !== undefined && currency ? { priceMinor: milliunitsToMinor(price, currency), currency } : {}),
    ...(region ? { region } : {}),
    purchaseDate: new Date(purchaseDate),
    quantity,
    ...(revocationDate !== undefined ? { revocationDate: new Date(revocationDate) } : {}),
    ...(revocationReason !== undefined ? { revocationReason } : {}),
    ...(appAccountToken ? { accountToken: appAccountToken } : {}),
  };
}
