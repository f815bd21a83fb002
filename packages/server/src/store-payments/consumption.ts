import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { StoreNotification } from '../app-stores/index.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { OrderRow } from '../orders/orders.repository.js';
import { ConsumptionRepository } from './consumption.repository.js';
import { enqueueEvent } from '../delivery/outbox.js';
import type { ClaimedEvent } from '../delivery/claim.js';
import type { ExternalSendResult } from '../delivery/dispatcher.js';
import { Channel, OrderStatus, TrxType } from '../orders/enums.js';
import type { OrderSettings } from '../orders/catalogue/settings.js';
import type { StoreClients } from './store-clients.js';
import type { MessageResult } from './notifications.js';
import type { StorePaymentsRepository } from './store-payments.repository.js';

/** What the consumption answer reads of an outbox event. */
export interface EventView {
  event_id: number;
  state: string;
  attempts: number;
  delivered_at: number | null;
  last_error: string | null;
}

/** Apple answers a CONSUMPTION_REQUEST's refund decision within 12 hours of the request; later data is not used. */
export const CONSUMPTION_WINDOW_MS = 12 * 3_600_000;
export const APPLE_CONSUMPTION_TARGET = 'apple_consumption';
const APPLE_HOSTS = {
  Production: 'https://api.storekit.itunes.apple.com',
  Sandbox: 'https://api.storekit-sandbox.itunes.apple.com',
} as const;

/** Apple's ConsumptionRequest (v2), as sent. */
export interface ConsumptionBody {
  customerConsented: true;
  deliveryStatus: 'DELIVERED' | 'UNDELIVERED_OTHER';
  sampleContentProvided: boolean;
  consumptionPercentage?: number;
  refundPreference?: string;
}

/** The outbox event's body: what the sender needs, nothing signed or secret. */
interface ConsumptionEvent {
  transactionId: string;
  trxNo: number;
  deadlineAt: number;
  request: ConsumptionBody;
}

/**
 * Consumption information for Apple (issue 27; docs/stores.md "Consumption information"): when an app's operator
 * recorded the studio's statement that its players consented, a CONSUMPTION_REQUEST for one of its paid
 * transactions is answered through the App Store Server API's Send Consumption Information (v2), from the platform's
 * own records: DELIVERED when the game accepted the order's 2.4 notification, the consumption the game reported
 * (POST /order/v1/game/orders/{trxNo}/consumption), the app's refund preference. The answer is an outbox event sent
 * by the delivery engine (retried on its schedule, never past Apple's 12-hour window), and each request is recorded
 * (store_consumption_requests) for operators.
 */
export class StoreConsumption {
  constructor(
    /** For the transaction of a consumption request and its outbox event. */
    private readonly db: Kysely<Tables>,
    private readonly repo: ConsumptionRepository,
    /** The store transactions (store-payments.repository.ts), read to find a request's order. */
    private readonly stores: StorePaymentsRepository,
    private readonly clients: StoreClients,
    private readonly settings: (appId: number) => Promise<OrderSettings>,
    /** The order (OrderService.row; NOT_FOUND when none). */
    private readonly orderRow: (trxNo: number) => Promise<OrderRow>,
    /** Outbox events by id (the delivery engine's events repository). */
    private readonly events: (eventIds: number[]) => Promise<EventView[]>,
    private readonly endpoint: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The game's report (5.1-signed route): how much of the purchase the player consumed, in milliunits. */
  async report(appId: number, trxNo: number, consumptionPercentage: number): Promise<{ trxNo: number }> {
    const order = await this.orderRow(trxNo).catch((e: unknown) => {
      if (e instanceof AppError && e.reason === 'NOT_FOUND') return undefined;
      throw e;
    });
    if (!order || Number(order.app_id) !== appId) throw new AppError('NOT_FOUND', `order ${trxNo} is not this app's`);
    if (
      order.trx_type !== TrxType.PAYMENT ||
      (order.channel !== Channel.IOS_STORE && order.channel !== Channel.ANDROID_STORE)
    )
      throw invalidParameter('trxNo', `order ${trxNo} is not a store payment (channel 1 or 2)`);
    if (order.status !== OrderStatus.SUCCEEDED)
      throw new AppError('ORDER_STATE', `order ${trxNo} is not paid (status ${order.status})`, {
        data: { trxNo, status: order.status, requested: OrderStatus.SUCCEEDED },
      });
    await this.repo.upsertReport({ trxNo, appId, consumptionPercentage, at: this.now() });
    return { trxNo };
  }

  /** A verified CONSUMPTION_REQUEST: answered through the outbox, or recorded as why not. */
  async request(appId: number, n: StoreNotification): Promise<MessageResult> {
    const t = n.transaction;
    if (!t) return { outcome: 'ignored', reason: 'no_transaction', trxNo: null };
    const requestedAt = Math.min(n.eventDate?.getTime() ?? this.now(), this.now());
    const deadlineAt = requestedAt + CONSUMPTION_WINDOW_MS;
    const row = await this.stores.transaction('apple', t.transactionId);
    const trxNo = row && row.app_id === appId ? Number(row.trx_no) : null;
    const settings = await this.settings(appId);
    const record = (state: string, eventId: number | null, body: string | null, repo = this.repo) =>
      repo.insertRequest({
        app_id: appId,
        transaction_id: t.transactionId,
        trx_no: trxNo,
        reason: n.consumptionRequestReason ?? null,
        state,
        event_id: eventId,
        body,
        requested_at: requestedAt,
        deadline_at: deadlineAt,
      });
    // Off by default: nothing about a player's use goes to Apple without the studio's consent statement.
    if (settings.consumptionConsent === null) {
      await record('skipped_no_consent', null, null);
      return { outcome: 'ignored', reason: 'no_consent', trxNo };
    }
    if (trxNo === null) {
      await record('unknown_transaction', null, null);
      return { outcome: 'ignored', reason: 'unknown_transaction', trxNo: null };
    }
    if (this.now() >= deadlineAt) {
      await record('expired', null, null);
      return { outcome: 'ignored', reason: 'expired', trxNo };
    }
    const request = await this.body(trxNo, settings);
    const event: ConsumptionEvent = { transactionId: t.transactionId, trxNo, deadlineAt, request };
    await this.db.transaction().execute(async (trx) => {
      const { eventId, body } = await enqueueEvent(
        trx,
        { appId, type: 'store_consumption', target: APPLE_CONSUMPTION_TARGET, body: () => event },
        this.now(),
      );
      await record('queued', eventId, JSON.stringify(request), new ConsumptionRepository(trx));
      return body;
    });
    return { outcome: 'applied', reason: 'consumption_queued', trxNo };
  }

  /** Apple's ConsumptionRequest from the platform's records of the order. */
  async body(trxNo: number, settings: OrderSettings): Promise<ConsumptionBody> {
    const order = await this.orderRow(trxNo);
    const [notified] = order.notify_event_id === null ? [] : await this.events([Number(order.notify_event_id)]);
    const consumed = await this.repo.report(trxNo);
    return {
      customerConsented: true,
      // The game accepted the 2.4 notification: it granted the items (2.4: it answers 200 once it has).
      deliveryStatus: notified?.state === 'delivered' ? 'DELIVERED' : 'UNDELIVERED_OTHER',
      sampleContentProvided: false,
      ...(consumed !== undefined ? { consumptionPercentage: consumed } : {}),
      ...(settings.refundPreference ? { refundPreference: settings.refundPreference } : {}),
    };
  }

  /** The delivery engine's sender of `apple_consumption` events. */
  readonly send = async (e: ClaimedEvent): Promise<ExternalSendResult> => {
    const event = JSON.parse(e.body) as ConsumptionEvent;
    const started = this.now();
    const settings = await this.clients.appleSettings(e.appId).catch((err: unknown) => {
      if (err instanceof AppError && err.reason === 'NOT_FOUND') return null;
      throw err;
    });
    const host = this.endpoint || APPLE_HOSTS[settings?.environment ?? 'Production'];
    const url = `${host}/inApps/v2/transactions/consumption/${encodeURIComponent(event.transactionId)}`;
    const result = (status: number | null, error?: string) => ({
      status,
      latencyMs: this.now() - started,
      body: '',
      ...(error ? { error } : {}),
    });
    if (started >= event.deadlineAt)
      return { url, outcome: 'refused', final: true, result: result(null, "past Apple's 12-hour window") };
    const api = settings ? await this.clients.appleApi(settings) : null;
    if (!api)
      return {
        url,
        outcome: 'refused',
        final: true,
        result: result(null, 'the app has no enabled App Store settings with an In-App Purchase key'),
      };
    try {
      await api.sendConsumption(event.transactionId, event.request);
      return { url, outcome: 'delivered', result: result(202) };
    } catch (err) {
      const status = (err as { status?: number | null }).status ?? null;
      const retryable = status === null || status === 429 || status >= 500;
      return {
        url,
        outcome: status === null ? 'network' : 'http_status',
        final: !retryable,
        result: result(status, String((err as Error).message).slice(0, 500)),
      };
    }
  };

  /** The requests of an app, newest first, each with its outbox event's delivery (admin API). */
  async list(appId: number, limit: number) {
    const rows = await this.repo.listRequests(appId, limit);
    const ids = rows.map((r) => r.event_id).filter((id): id is number => id !== null);
    const events = new Map((await this.events(ids.map(Number))).map((e) => [Number(e.event_id), e]));
    return rows.map((r) => ({ ...r, event: r.event_id === null ? undefined : events.get(Number(r.event_id)) }));
  }
}
