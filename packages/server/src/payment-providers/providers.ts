import type { Config } from '../config/config.js';
import type { AnyProvider, ProviderId } from './provider.js';
import { stripeProvider } from './stripe/stripe.js';
import { paypalProvider } from './paypal/paypal.js';
import { alipayProvider } from './alipay/alipay.js';
import { wechatpayProvider } from './wechatpay/wechatpay.js';

/**
 * The provider adapters this service offers, built from the configuration (each provider's API base URL). A new
 * provider adds one line here (and its id to PROVIDER_IDS, its entry to PROVIDERS): the settings, admin API, CLI,
 * console panel, webhook route, page methods and reconciliation all follow from this list.
 */
export function createProviders(config: Config): AnyProvider[] {
  return [stripeProvider(config), paypalProvider(config), alipayProvider(config), wechatpayProvider(config)];
}

/** The adapters by id and by channel (each provider has its own 2.7 channel number). */
export class ProviderRegistry {
  readonly #byId = new Map<string, AnyProvider>();

  constructor(readonly all: AnyProvider[]) {
    const channels = new Set<number>();
    for (const p of all) {
      if (this.#byId.has(p.id) || channels.has(p.channel))
        throw new Error(`payment provider ${p.id}: its id or channel ${p.channel} is taken by another provider`);
      this.#byId.set(p.id, p);
      channels.add(p.channel);
    }
  }

  get ids(): ProviderId[] {
    return this.all.map((p) => p.id);
  }

  get(id: string): AnyProvider | undefined {
    return this.#byId.get(id);
  }

  byChannel(channel: number): AnyProvider | undefined {
    return this.all.find((p) => p.channel === channel);
  }
}
