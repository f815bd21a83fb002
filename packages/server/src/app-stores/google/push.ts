import { OAuth2Client } from 'google-auth-library';
import { StoreVerificationError } from '../errors.js';
import type { StoreNotification, StoreNotificationType } from '../types.js';
import { MAX_TOKEN, checkText, object, optInt, optInt64, optObject, optText, text } from '../fields.js';

export interface GooglePushConfig {
  /** The audience set on the push subscription's OIDC authentication (default there: the push endpoint URL). */
  audience: string;
  /** The service account the push subscription authenticates as. */
  serviceAccountEmail: string;
  /** The app's package name: notifications for another are refused. */
  packageName: string;
  /** Where Google's token-signing certificates are fetched; default https://www.googleapis.com/oauth2/v1/certs. */
  certsUrl?: string;
}

/** The body Pub/Sub POSTs to a push endpoint. */
export interface PubSubPushBody {
  message?: {
    data?: string;
    messageId?: string;
    message_id?: string;
    publishTime?: string;
    attributes?: Record<string, string>;
  };
  subscription?: string;
}

/**
 * Verifies a Pub/Sub push of Google Play's real-time developer notifications: the `Authorization: Bearer` OIDC token
 * with google-auth-library's OAuth2Client.verifyIdToken (Google's signature, issuer, expiry, audience), then the
 * service account in its `email` claim (`email_verified` true), then decodes `message.data`.
 */
export class GooglePushVerifier {
  readonly #client: OAuth2Client;
  readonly #config: GooglePushConfig;

  constructor(config: GooglePushConfig) {
    this.#config = config;
    this.#client = new OAuth2Client(
      config.certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: config.certsUrl } } : {},
    );
  }

  async verify(authorization: string | undefined, body: unknown): Promise<StoreNotification> {
    const idToken = /^Bearer ([A-Za-z0-9._-]+)$/.exec(authorization ?? '')?.[1];
    if (!idToken) throw new StoreVerificationError('missing_token', 'the push has no Authorization: Bearer token');
    let payload;
    try {
      payload = (await this.#client.verifyIdToken({ idToken, audience: this.#config.audience })).getPayload();
    } catch (e) {
      throw tokenError(e);
    }
    if (!payload) throw new StoreVerificationError('malformed', 'the push token has no payload');
    if (payload.email !== this.#config.serviceAccountEmail)
      throw new StoreVerificationError(
        'wrong_service_account',
        `the push token is for ${String(payload.email)}, expected ${this.#config.serviceAccountEmail}`,
      );
    if (payload.email_verified !== true)
      throw new StoreVerificationError('wrong_service_account', 'the push token says its email is not verified');
    return this.#decode(body);
  }

  #decode(body: unknown): StoreNotification {
    const message = (body as PubSubPushBody | null)?.message;
    const messageId = message?.messageId ?? message?.message_id;
    if (!message || typeof message.data !== 'string' || typeof messageId !== 'string' || !messageId)
      throw new StoreVerificationError('malformed', 'not a Pub/Sub push body with message.data and messageId');
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(message.data, 'base64').toString('utf8'));
    } catch (e) {
      throw new StoreVerificationError('malformed', 'message.data is not base64 JSON', { cause: e });
    }
    // Every field read is checked before use (fields.ts): the token proves Google pushed it, not its content.
    checkText(messageId, 'message.messageId', 128);
    const what = 'notification';
    const n = object(parsed, 'message.data');
    if (typeof n.packageName !== 'string')
      throw new StoreVerificationError('malformed', 'message.data is not a developer notification');
    const packageName = text(n, 'packageName', what);
    if (packageName !== this.#config.packageName)
      throw new StoreVerificationError(
        'wrong_package',
        `notification for ${packageName}, expected ${this.#config.packageName}`,
      );
    optText(n, 'version', what, 16);
    const eventTime = optInt64(n, 'eventTimeMillis', what);
    const base = {
      store: 'google' as const,
      notificationId: messageId,
      appIdentifier: packageName,
      ...(eventTime !== undefined ? { eventDate: new Date(eventTime) } : {}),
    };
    const voided = optObject(n, 'voidedPurchaseNotification', what);
    const oneTime = optObject(n, 'oneTimeProductNotification', what);
    const subscription = optObject(n, 'subscriptionNotification', what);
    const test = optObject(n, 'testNotification', what);
    if (voided) {
      const w = `${what}.voidedPurchaseNotification`;
      const purchaseToken = optText(voided, 'purchaseToken', w, MAX_TOKEN);
      const orderId = optText(voided, 'orderId', w);
      const refundType = optInt(voided, 'refundType', w, 0, 100);
      const productType = optInt(voided, 'productType', w, 0, 100);
      return {
        ...base,
        type: 'REFUND',
        rawType: 'voidedPurchaseNotification',
        ...(purchaseToken ? { purchaseToken } : {}),
        ...(orderId ? { orderId } : {}),
        ...(refundType !== undefined ? { refundType } : {}),
        ...(productType !== undefined ? { productType } : {}),
      };
    }
    if (oneTime) {
      const w = `${what}.oneTimeProductNotification`;
      optText(oneTime, 'version', w, 16);
      const notificationType = optInt(oneTime, 'notificationType', w, 0, 100);
      const purchaseToken = optText(oneTime, 'purchaseToken', w, MAX_TOKEN);
      const sku = optText(oneTime, 'sku', w);
      const type: StoreNotificationType =
        notificationType === 1
          ? 'ONE_TIME_PRODUCT_PURCHASED'
          : notificationType === 2
            ? 'ONE_TIME_PRODUCT_CANCELED'
            : 'other';
      return {
        ...base,
        type,
        rawType: `oneTimeProductNotification:${String(notificationType)}`,
        ...(purchaseToken ? { purchaseToken } : {}),
        ...(sku ? { productId: sku } : {}),
      };
    }
    if (test) {
      optText(test, 'version', `${what}.testNotification`, 16);
      return { ...base, type: 'TEST', rawType: 'testNotification' };
    }
    if (subscription) {
      const w = `${what}.subscriptionNotification`;
      optText(subscription, 'version', w, 16);
      optText(subscription, 'subscriptionId', w);
      const notificationType = optInt(subscription, 'notificationType', w, 0, 100);
      const purchaseToken = optText(subscription, 'purchaseToken', w, MAX_TOKEN);
      return {
        ...base,
        type: 'other',
        rawType: `subscriptionNotification:${String(notificationType)}`,
        ...(purchaseToken ? { purchaseToken } : {}),
      };
    }
    return { ...base, type: 'other', rawType: 'unknown' };
  }
}

/** google-auth-library throws plain Errors; their messages are its API for which check failed. */
function tokenError(e: unknown): StoreVerificationError {
  const message = e instanceof Error ? e.message : String(e);
  const is = (re: RegExp) => re.test(message);
  if (is(/^Wrong recipient/))
    return new StoreVerificationError('wrong_audience', 'the push token is for another audience', { cause: e });
  if (is(/^Invalid issuer/))
    return new StoreVerificationError('wrong_issuer', 'the push token was not issued by Google', { cause: e });
  if (is(/^Token used too (late|early)|^Expiration time too far/))
    return new StoreVerificationError('expired', `the push token is outside its validity: ${message.split(',')[0]}`, {
      cause: e,
    });
  if (is(/^Invalid token signature|^No pem found/))
    return new StoreVerificationError('bad_signature', 'the push token is not signed by a current Google key', {
      cause: e,
    });
  if (is(/^Can't parse|^Wrong number of segments|^No (issue|expiration) time|^Invalid token payload|^(iat|exp) field/))
    return new StoreVerificationError('malformed', `the push token is malformed: ${message}`, { cause: e });
  const fetchFailed =
    (e as { status?: number; response?: unknown }).response !== undefined ||
    (e as { name?: string }).name === 'GaxiosError';
  if (fetchFailed)
    return new StoreVerificationError('store_unavailable', `Google's certificates could not be fetched: ${message}`, {
      cause: e,
    });
  return new StoreVerificationError('malformed', `the push token was refused: ${message}`, { cause: e });
}
