import { OAuth2Client } from 'google-auth-library';
import { StoreVerificationError } from '../errors.js';
import type { StoreNotification, StoreNotificationType } from '../types.js';

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

/** Real-time developer notification (the JSON inside `message.data`), the members used here. */
interface DeveloperNotification {
  version?: string;
  packageName?: string;
  eventTimeMillis?: string;
  oneTimeProductNotification?: { version?: string; notificationType?: number; purchaseToken?: string; sku?: string };
  voidedPurchaseNotification?: { purchaseToken?: string; orderId?: string; productType?: number; refundType?: number };
  subscriptionNotification?: { notificationType?: number; purchaseToken?: string };
  testNotification?: { version?: string };
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
    let n: DeveloperNotification;
    try {
      n = JSON.parse(Buffer.from(message.data, 'base64').toString('utf8')) as DeveloperNotification;
    } catch (e) {
      throw new StoreVerificationError('malformed', 'message.data is not base64 JSON', { cause: e });
    }
    if (typeof n !== 'object' || n === null || typeof n.packageName !== 'string')
      throw new StoreVerificationError('malformed', 'message.data is not a developer notification');
    if (n.packageName !== this.#config.packageName)
      throw new StoreVerificationError(
        'wrong_package',
        `notification for ${n.packageName}, expected ${this.#config.packageName}`,
      );
    const base = {
      store: 'google' as const,
      notificationId: messageId,
      appIdentifier: n.packageName,
      ...(n.eventTimeMillis ? { eventDate: new Date(Number(n.eventTimeMillis)) } : {}),
    };
    if (n.voidedPurchaseNotification) {
      const v = n.voidedPurchaseNotification;
      return {
        ...base,
        type: 'REFUND',
        rawType: 'voidedPurchaseNotification',
        ...(v.purchaseToken ? { purchaseToken: v.purchaseToken } : {}),
        ...(v.orderId ? { orderId: v.orderId } : {}),
        ...(v.refundType != null ? { refundType: v.refundType } : {}),
        ...(v.productType != null ? { productType: v.productType } : {}),
      };
    }
    if (n.oneTimeProductNotification) {
      const o = n.oneTimeProductNotification;
      const type: StoreNotificationType =
        o.notificationType === 1
          ? 'ONE_TIME_PRODUCT_PURCHASED'
          : o.notificationType === 2
            ? 'ONE_TIME_PRODUCT_CANCELED'
            : 'other';
      return {
        ...base,
        type,
        rawType: `oneTimeProductNotification:${String(o.notificationType)}`,
        ...(o.purchaseToken ? { purchaseToken: o.purchaseToken } : {}),
        ...(o.sku ? { productId: o.sku } : {}),
      };
    }
    if (n.testNotification) return { ...base, type: 'TEST', rawType: 'testNotification' };
    if (n.subscriptionNotification)
      return {
        ...base,
        type: 'other',
        rawType: `subscriptionNotification:${String(n.subscriptionNotification.notificationType)}`,
        ...(n.subscriptionNotification.purchaseToken
          ? { purchaseToken: n.subscriptionNotification.purchaseToken }
          : {}),
      };
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
