import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { AppService } from '../apps/apps.service.js';
import type { GameCallsClient } from '../game-calls/game-calls.js';
import type { OrdersDomain } from '../orders/orders.module.js';
import type { PaymentProvidersDomain } from '../payment-providers/payment-providers.module.js';
import { PayLinkService } from './pay-links.js';
import { PayLinksRepository } from './pay-links.repository.js';
import { PaySessions } from './session.js';
import { WebPaySettingsRepository } from './web-pay-settings.repository.js';
import { WebPaySettingsService } from './web-pay-settings.js';
import type { WebPayServices } from './web-pay.page.routes.js';
import { WEB_PAYMENT_TYPE, WebPayService, webChannelOf, type PageMethod } from './web-pay.service.js';

export { payLinkRoutes } from './pay-links.routes.js';
export { webPayApiRoutes } from './web-pay.routes.js';
export { webPayPageRoutes } from './web-pay.page.routes.js';
export { webPayAdminRoutes } from './web-pay.admin.routes.js';
export { registerWebPayCommands } from './web-pay.cli.js';

/** The web payment page's domain as services.ts holds it. */
export type WebPayDomain = WebPayServices;

export function createWebPay(deps: {
  db: Kysely<Tables>;
  box: SecretBox;
  apps: AppService;
  gameCalls: GameCallsClient;
  orders: OrdersDomain;
  providers: Pick<PaymentProvidersDomain, 'settings' | 'reconciliation'>;
  now: () => number;
}): WebPayDomain {
  const { db, now } = deps;
  const sessions = new PaySessions(deps.box, now);
  const settings = new WebPaySettingsService(
    new WebPaySettingsRepository(db),
    async (appId) => {
      await deps.apps.get(appId);
    },
    now,
  );
  const page = new WebPayService({
    gameCalls: deps.gameCalls,
    orders: deps.orders.orders,
    products: deps.orders.products,
    settings,
    sessions,
    webRegionLock: async (appId) => (await deps.orders.settings.cached(appId)).webRegionLock,
    sandboxEnabled: deps.orders.sandboxEnabled,
    methods: async (app) => {
      const { settings } = deps.providers;
      const offered = await settings.methodsFor(app.appId, app.region === 'mainland' ? 'mainland' : 'overseas');
      const methods: PageMethod[] = offered.map((m) => ({
        ...m,
        paymentType: (device) => settings.registry.get(m.provider)?.paymentType?.(device) ?? WEB_PAYMENT_TYPE,
      }));
      // The sandbox stands in (tests, demos) on the region's web channel, unless a provider takes that channel.
      const channel = webChannelOf(app);
      const taker = settings.registry.byChannel(channel);
      if (deps.orders.sandboxEnabled && !(taker && (await settings.enabledRegions(app.appId, taker.id))))
        methods.push({ provider: 'sandbox', method: 'sandbox', channel, paymentType: () => WEB_PAYMENT_TYPE });
      return methods;
    },
    lateQuery: (trxNo) => deps.providers.reconciliation.lateQuery(trxNo),
  });
  return { page, links: new PayLinkService(new PayLinksRepository(db), now), sessions, settings };
}
