import { AppError } from '../errors/app-error.js';
import {
  returnUrlOf,
  type PaymentChannelAdapter,
  type PaymentContext,
  type PaymentStart,
} from '../orders/payments/channels/channel.js';
import type { ItemRow, OrderRow } from '../orders/orders.repository.js';
import type { ProvidersRepository } from './payment-providers.repository.js';
import { ProviderError } from './provider.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import { webhookUrl } from './provider-settings.service.js';

/**
 * The web providers at the channel seam (orders/payments/channels/channel.ts): a web page order whose channel is a provider's
 * (Stripe 6, PayPal 5, Alipay 4, WeChat Pay 3), for an app with that provider enabled, is opened at that provider.
 * Written once for every provider: the payment is recorded (provider_payments) with the order's amount, currency and
 * lifetime, against which every later message and query is checked.
 */
export class ProviderChannel implements PaymentChannelAdapter {
  readonly name = 'provider';

  constructor(
    private readonly repo: ProvidersRepository,
    private readonly settings: ProviderSettingsService,
    private readonly productNames: (appId: number) => Promise<Map<string, string>>,
    /** WEB_ORDER_LIFETIME_MINUTES in ms: past it an unpaid payment is closed. */
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async supports(channel: number, appId: number, origin: string): Promise<boolean> {
    const provider = this.settings.registry.byChannel(channel);
    // Game clients pay in the stores; the providers take the web payment page's orders.
    return (
      origin === 'web_page' &&
      provider !== undefined &&
      (await this.settings.enabledRegions(appId, provider.id)) !== null
    );
  }

  async startPayment(order: OrderRow, items: ItemRow[], ctx: PaymentContext): Promise<PaymentStart> {
    const provider = this.settings.registry.byChannel(order.channel)!;
    const settings = await this.settings.forApp(order.app_id, provider.id);
    if (!settings?.enabled || !ctx.returnUrl || !ctx.web)
      throw new AppError('PAYMENT_METHOD_UNAVAILABLE', `${provider.id} does not take this order`);
    const expiresAt = order.created_at + this.lifetimeMs;
    let opened;
    try {
      opened = await provider.open(settings, {
        order,
        items,
        names: await this.productNames(order.app_id),
        returnUrl: returnUrlOf(ctx.returnUrl, order.trx_no),
        notifyUrl: webhookUrl(ctx.web.baseUrl, provider.id, order.app_id),
        expiresAt,
        device: ctx.web.device,
        lang: ctx.web.lang,
        clientIp: ctx.web.clientIp,
        idempotencyKey: `gp-order-${order.app_id}-${order.trx_no}`,
      });
    } catch (e) {
      if (e instanceof ProviderError)
        throw new AppError('PROVIDER_UNAVAILABLE', `${provider.id} could not open the payment: ${e.message}`, {
          cause: e,
        });
      throw e;
    }
    await this.repo.insertPayment({
      trx_no: order.trx_no,
      app_id: order.app_id,
      provider: provider.id,
      ref: opened.ref,
      amount_minor: order.total_minor,
      currency: order.currency,
      state: 'open',
      provider_trx_id: null,
      opened_at: this.now(),
      expires_at: expiresAt,
      checked_at: null,
      lease_until: 0,
      paid_at: null,
      closed_at: null,
    });
    return { bankTrxNo: null, step: opened.step };
  }
}
