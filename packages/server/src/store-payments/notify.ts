import { decodeJwt } from 'jose';
import type { StoreNotification } from '../app-stores/index.js';
import { AppError } from '../errors/app-error.js';
import type { StoreClients } from './store-clients.js';
import type { StoreConsumption } from './consumption.js';
import type { MessageResult, StoreMessages, StoreRefundEvent } from './notifications.js';

/**
 * The two notification endpoints' logic: verify with the app's settings, then StoreMessages applies and records.
 * An app without enabled settings of the store (or, for Google, without a push audience and service account) is
 * 404, recorded nowhere: there is no app to show it to.
 */
export class StoreNotifications {
  constructor(
    private readonly clients: StoreClients,
    private readonly messages: StoreMessages,
    private readonly consumption: StoreConsumption,
  ) {}

  async apple(appId: number, signedPayload: string): Promise<MessageResult> {
    const settings = await this.clients.appleSettings(appId);
    let n: StoreNotification;
    try {
      n = await (await this.clients.appleVerifier(settings)).verifyNotification(signedPayload);
    } catch (e) {
      return this.messages.refused('apple', appId, e, claimedApple(signedPayload));
    }
    return this.messages.notification(
      appId,
      n,
      () => appleRefund(appId, n),
      () => (n.type === 'CONSUMPTION_REQUEST' ? this.consumption.request(appId, n) : null),
    );
  }

  async google(appId: number, authorization: string | undefined, body: unknown): Promise<MessageResult> {
    const settings = await this.clients.googleSettings(appId);
    const verifier = await this.clients.googlePush(settings);
    if (!verifier) throw new AppError('NOT_FOUND', `app ${appId} has no Pub/Sub push audience and service account set`);
    let n: StoreNotification;
    try {
      n = await verifier.verify(authorization, body);
    } catch (e) {
      return this.messages.refused('google', appId, e, claimedGoogle(body));
    }
    return this.messages.notification(appId, n, () => googleRefund(appId, n));
  }
}

function appleRefund(appId: number, n: StoreNotification): StoreRefundEvent | null {
  const t = n.transaction;
  return t ? { store: 'apple', appId, storeKey: t.transactionId, bankTrxNo: t.transactionId } : null;
}

/** A voided one-time purchase refunds its order; subscriptions and partial refunds are left to operators. */
function googleRefund(appId: number, n: StoreNotification): StoreRefundEvent | { ignore: string } | null {
  if (n.productType === 1) return { ignore: 'subscription' };
  if (n.refundType === 2) return { ignore: 'partial_refund' };
  if (!n.purchaseToken && !n.orderId) return null;
  return { store: 'google', appId, storeKey: n.purchaseToken ?? null, bankTrxNo: n.orderId ?? null };
}

/** What a refused Apple payload claims to be (unverified, for operators): its type and UUID, never the payload. */
function claimedApple(signedPayload: string): string {
  try {
    const p = decodeJwt(signedPayload) as { notificationType?: unknown; subtype?: unknown; notificationUUID?: unknown };
    return JSON.stringify({
      unverified: true,
      type: String(p.notificationType ?? ''),
      ...(p.subtype ? { subtype: String(p.subtype) } : {}),
      notificationUUID: String(p.notificationUUID ?? ''),
    });
  } catch {
    return JSON.stringify({ unverified: true, malformed: true });
  }
}

/** What a refused push claims to be (unverified): its Pub/Sub message id and subscription; not its data. */
function claimedGoogle(body: unknown): string {
  const b = (body ?? {}) as { message?: { messageId?: unknown }; subscription?: unknown };
  return JSON.stringify({
    unverified: true,
    messageId: String(b.message?.messageId ?? ''),
    subscription: String(b.subscription ?? ''),
  });
}
