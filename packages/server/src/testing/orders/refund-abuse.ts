import assert from 'node:assert/strict';
import { platformPublicKeys, startGameServer, type GameServer } from '../game-server.js';
import { startTestService, type TestService } from '../service.js';
import { SANDBOX, appWithProducts, details, payOk, placeOk, storeOrder } from './orders.js';

/**
 * Helpers of the refund-abuse tests: real store refunds through the sandbox channel (the stand-in for the App Store
 * and Google Play of apps without store settings), a real game server that grants the items (accepts the 2.4
 * notification) except for the players listed in `refusedUsers`, so each refund owes a supplement (4.5) or not, and
 * answers the role query (4.8: role `role-<userId>` is that player's) and the pre-order check (4.10, allowed).
 */
export interface RefundWorld {
  svc: TestService;
  game: GameServer;
  /** An app with the products of appWithProducts (gems_100 6.99 USD at channels 1 and 2, kwd_item 1.250 KWD at 2). */
  app: any;
  /** Players whose payment notifications the game refuses: their refunds owe no supplement (items never granted). */
  refusedUsers: Set<string>;
  close(): Promise<void>;
}

export async function startRefundWorld(env: Record<string, string> = {}): Promise<RefundWorld> {
  const svc = await startTestService({ ...SANDBOX, DELIVERY_POLL_MS: '50', DELIVERY_SCHEDULE: '0', ...env });
  const refusedUsers = new Set<string>();
  const game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
    if (req.url.startsWith('/role')) {
      // 4.8: role `role-<userId>` belongs to that player.
      const roleId = new URL(req.url, 'http://x').searchParams.get('roleId') ?? '';
      const body = { userId: roleId.replace(/^role-/, ''), roleId, name: 'n', avatar: 'a' };
      return { status: 200, body: JSON.stringify(body) };
    }
    if (req.url === '/pre-order') return { status: 200, body: '' };
    const body = req.body ? (JSON.parse(req.body) as { userId?: string }) : {};
    return { status: body.userId !== undefined && refusedUsers.has(body.userId) ? 500 : 204, body: '' };
  });
  const app = await appWithProducts(svc, {
    name: 'Refund World',
    callbackUrls: { default: `${game.url}/cb` },
    roleQueryUrl: `${game.url}/role`,
    preOrderCheckUrl: `${game.url}/pre-order`,
  });
  return {
    svc,
    game,
    app,
    refusedUsers,
    async close() {
      await svc.close();
      await game.close();
    },
  };
}

/**
 * A store purchase of `userId` paid, its 2.4 notification settled at the game (delivered, or dead for a refused
 * player), then refunded through the sandbox store refund: answers the payment and the refund order.
 */
export async function refundedPurchase(
  svc: TestService,
  appId: number,
  userId: string,
  opts: { productCode?: string; quantity?: number; channel?: 1 | 2; granted?: boolean } = {},
): Promise<{ order: any; refund: any }> {
  const channel = opts.channel ?? 1;
  const order = await placeOk(
    svc,
    storeOrder(appId, {
      userId,
      products: [{ productCode: opts.productCode ?? 'gems_100', quantity: opts.quantity ?? 1 }],
      channel,
      platform: channel,
    }),
  );
  await payOk(svc, order.trxNo);
  const state = opts.granted === false ? 'dead' : 'delivered';
  const until = Date.now() + 10_000;
  while ((await details(svc, order.trxNo)).notifications[0].state !== state) {
    if (Date.now() > until) throw new Error(`the payment notification of ${order.trxNo} did not become ${state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const refund = await svc.admin('POST', `/sandbox/orders/${order.trxNo}/refund`, {});
  assert.equal(refund.status, 201, JSON.stringify(refund.body));
  return { order, refund: refund.body };
}

/** Another app of the world (another studio's game): its payment callback is the world's game, one store product `gems_100` at channel 1. */
export async function anotherApp(w: RefundWorld, name: string, price: number, currency: string): Promise<any> {
  const app = await w.svc.createApp({ name, callbackUrls: { default: `${w.game.url}/cb` } });
  const product = await w.svc.admin('POST', `/apps/${app.appId}/products`, {
    productCode: 'gems_100',
    name: 'gems',
    price,
    currency,
    channelSkus: { 1: `app${app.appId}.gems` },
  });
  assert.equal(product.status, 201, JSON.stringify(product.body));
  return app;
}
