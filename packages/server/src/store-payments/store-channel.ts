import { storeAccountToken } from '@game-platform/sdk';
import { Channel } from '../orders/enums.js';
import type { PaymentChannelAdapter, PaymentStart } from '../orders/payments/channels/channel.js';
import type { ItemRow, OrderRow } from '../orders/orders.repository.js';
import type { StoreName } from '../app-stores/index.js';

/** The store of a store channel (2.7: 1 iOS store, 2 Android store). */
export function storeOf(channel: number): StoreName | null {
  return channel === Channel.IOS_STORE ? 'apple' : channel === Channel.ANDROID_STORE ? 'google' : null;
}

/**
 * The App Store (channel 1) and Google Play (channel 2) for apps whose store settings are enabled; for other apps the
 * channel falls to the next adapter (the sandbox when SANDBOX_PAYMENTS). Opening the payment answers what the client
 * needs to buy the product in the store and where to submit the store's proof of purchase (a `store` step).
 */
export class StoreChannel implements PaymentChannelAdapter {
  readonly name = 'store';

  constructor(private readonly enabled: (appId: number, store: StoreName) => Promise<boolean>) {}

  supports(channel: number, appId: number): Promise<boolean> | boolean {
    const store = storeOf(channel);
    return store !== null && this.enabled(appId, store);
  }

  async startPayment(order: OrderRow, items: ItemRow[]): Promise<PaymentStart> {
    const productId = items[0]?.channel_sku_code;
    const store = storeOf(order.channel)!;
    const submit =
      store === 'apple'
        ? `POST /order/v1/client/orders/${order.trx_no}/apple-transactions`
        : `POST /order/v1/client/orders/${order.trx_no}/google-purchases`;
    // Purchases bound to their buyer (issue 27): the client hands the store this player's token, the store signs it
    // into the transaction, and the submission checks it (purchases.ts, per the app's accountBinding).
    const token = storeAccountToken(order.app_id, order.user_id);
    return {
      bankTrxNo: null,
      step: {
        kind: 'store',
        channel: 'store',
        store,
        productId: productId || null,
        submit,
        ...(store === 'apple' ? { appAccountToken: token } : { obfuscatedAccountId: token }),
      },
    };
  }
}
