import type { OrderRow } from '../orders.repository.js';

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
  /** Whether this adapter takes payments of this channel enum value. */
  supports(channel: number): boolean;
  startPayment(order: OrderRow): Promise<PaymentStart>;
}

/** The client-reported facts of a store payment (2.4: clientAmount, clientCurrency, clientRegion). */
export interface ClientReport {
  /** Minor units of `currency`. */
  amountMinor: number;
  currency: string;
  region: string | null;
}

export type ChannelEvent =
  | { kind: 'paid'; trxNo: number; bankTrxNo: string | null; client: ClientReport | null }
  | { kind: 'failed'; trxNo: number; reason: string }
  /** A store refund of a paid order (6: only the two store channels). */
  | { kind: 'refunded'; trxNo: number; bankRefundNo: string | null };

/** The adapters by channel; the first that supports a channel takes it. */
export class ChannelRegistry {
  constructor(private readonly adapters: PaymentChannelAdapter[]) {}

  forChannel(channel: number): PaymentChannelAdapter | undefined {
    return this.adapters.find((a) => a.supports(channel));
  }

  get names(): string[] {
    return this.adapters.map((a) => a.name);
  }
}
