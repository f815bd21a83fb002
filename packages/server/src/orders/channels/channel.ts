import type { Kysely } from 'kysely';
import type { Tables } from '../../tables.js';
import type { ItemRow, OrderRow } from '../orders.repository.js';

/** What a channel answers when it opens a payment: what the client needs to pay. */
export interface PaymentStart {
  /** The channel's transaction number, when it gives one at this point (`bankTrxNo`). */
  bankTrxNo: string | null;
  /** Channel-specific instructions for the client (a pay URL, a store SKU, a sandbox hint). */
  payment: Record<string, string>;
}

/**
 * One adapter per payment channel (2.7 `channel`). It opens payments; what
 * the channel reports back (paid, failed, refunded) enters as a ChannelEvent
 * through OrderService.applyChannelEvent, after the adapter authenticated it
 * (a store server notification, a provider webhook, the sandbox's operator
 * call).
 */
export interface PaymentChannelAdapter {
  readonly name: string;
  /** Whether this adapter takes payments of this channel enum value for this app (a store adapter: the app's store settings). */
  supports(channel: number, appId: number): boolean | Promise<boolean>;
  startPayment(order: OrderRow, items: ItemRow[]): Promise<PaymentStart>;
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

  async forChannel(channel: number, appId: number): Promise<PaymentChannelAdapter | undefined> {
    for (const a of this.adapters) if (await a.supports(channel, appId)) return a;
    return undefined;
  }

  get names(): string[] {
    return this.adapters.map((a) => a.name);
  }
}
