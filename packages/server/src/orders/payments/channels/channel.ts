import type { Kysely } from 'kysely';
import type { Tables } from '../../../db/tables.js';
import type { ItemRow, OrderRow } from '../../orders.repository.js';

/**
 * The next step of a payment, as the channel that opened it answers it (docs/orders.md, "Payment steps"). The result
 * never comes with the step: it arrives later and asynchronously, as a ChannelEvent (a provider's webhook, a store's
 * server notification, the sandbox's operator call or hosted step), and the client or page follows the order.
 * - `redirect`: a provider-hosted page; the browser goes to `url` and the provider sends it back to the return URL.
 * - `hosted`: the platform's own hosted step, rendered by the web payment page (the sandbox: pay, fail, cancel).
 * - `qr`: a code the payer scans with a phone app (WeChat Pay Native): the page shows `image` (a PNG data URL of
 *   `code`) and follows the order.
 * - `store`: buy `productId` in the app store, then submit the store's proof of purchase to `submit`.
 */
export type PaymentStep =
  | { kind: 'redirect'; channel: string; url: string }
  | { kind: 'hosted'; channel: string; outcomes: string[]; complete: string }
  | { kind: 'qr'; channel: string; code: string; image: string }
  | {
      kind: 'store';
      channel: 'store';
      store: string;
      productId: string | null;
      submit: string;
      /** App Store: StoreKit 2's appAccountToken purchase option (the player's account token, issue 27). */
      appAccountToken?: string;
      /** Google Play: BillingFlowParams.setObfuscatedAccountId (the same token). */
      obfuscatedAccountId?: string;
    };

/** What a channel answers when it opens a payment. */
export interface PaymentStart {
  /** The channel's transaction number, when it gives one at this point (`bankTrxNo`). */
  bankTrxNo: string | null;
  step: PaymentStep;
}

/** What the opener of a payment hands the channel. */
export interface PaymentContext {
  /**
   * Where a provider-hosted page sends the browser back (the web payment page's, validated there: same origin as
   * the page or one of the app's return URLs), with `trxNo` added to its query; null for game clients.
   */
  returnUrl: string | null;
  /** The web payment page's payer: what a provider may ask (the payment-providers seam); absent for game clients. */
  web?: WebPayer;
}

export interface WebPayer {
  device: 'desktop' | 'phone';
  /** The page's language (en, zh-CN). */
  lang: string;
  /** The payer's IP as the edge reported it; null when unknown. */
  clientIp: string | null;
  /** The base URL the page reached this service at (a provider's webhook URL is made from it). */
  baseUrl: string;
}

/**
 * The flat `payment` map the client API has answered since before steps had kinds (kept for clients): the step's
 * string fields (`outcomes` joined with commas, a null `productId` left out). New clients read `paymentStep`.
 */
export function paymentFields(step: PaymentStep): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(step)) {
    if (key === 'kind' || value === null) continue;
    out[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return out;
}

/** `url` with `trxNo` set in its query: the return URL a channel hands its provider for one order. */
export function returnUrlOf(url: string, trxNo: number): string {
  const u = new URL(url);
  u.searchParams.set('trxNo', String(trxNo));
  return u.toString();
}

/**
 * One adapter per payment channel (2.7 `channel`). It opens payments and answers the next step; what the channel
 * reports back (paid, failed, refunded) enters as a ChannelEvent through OrderService.applyChannelEvent, after the
 * adapter authenticated it (a store server notification, a provider webhook, the sandbox's operator call).
 */
export interface PaymentChannelAdapter {
  readonly name: string;
  /**
   * Whether this adapter takes payments of this channel enum value for this app and order origin (a store adapter:
   * the app's store settings; a web provider: the app's provider settings, web page orders only).
   */
  supports(channel: number, appId: number, origin: string): boolean | Promise<boolean>;
  startPayment(order: OrderRow, items: ItemRow[], ctx: PaymentContext): Promise<PaymentStart>;
}

/** The client-reported facts of a store payment (2.4: clientAmount, clientCurrency, clientRegion). */
export interface ClientReport {
  /** Minor units of `currency`. */
  amountMinor: number;
  currency: string;
  region: string | null;
}

export type ChannelEvent =
  | {
      kind: 'paid';
      trxNo: number;
      bankTrxNo: string | null;
      client: ClientReport | null;
      /**
       * Written in the same transaction as the payment (a store adapter records the transactions that paid it, so
       * one store transaction pays at most once); a throw rolls the payment back.
       */
      alsoWrite?: (trx: Kysely<Tables>) => Promise<void>;
      /** A merged iOS receipt (2.4 rules 3, 9): the order is marked merged as it is paid. */
      mergedReceipts?: boolean;
    }
  | { kind: 'failed'; trxNo: number; reason: string }
  /** A store refund of a paid order (6: only the two store channels). */
  | { kind: 'refunded'; trxNo: number; bankRefundNo: string | null };

/** The adapters by channel and app, in order of preference; the first that supports them takes the payment. */
export class ChannelRegistry {
  constructor(private readonly adapters: PaymentChannelAdapter[]) {}

  async forChannel(channel: number, appId: number, origin: string): Promise<PaymentChannelAdapter | undefined> {
    for (const a of this.adapters) if (await a.supports(channel, appId, origin)) return a;
    return undefined;
  }

  get names(): string[] {
    return this.adapters.map((a) => a.name);
  }
}
