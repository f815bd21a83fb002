import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { guestLogin, macRequest, type Login } from '../accounts/accounts.js';
import { platformPublicKeys, startGameServer, type GameRequest, type GameServer } from '../game-server.js';
import { startTestService, type TestService } from '../service.js';
import { appWithProducts, count } from '../orders/orders.js';
import { TEST_PACKAGE, makeServiceAccount, startGoogle, type GoogleServer } from '../google-fixture.js';
import {
  TEST_BUNDLE_ID,
  makeApiKey,
  makeAppleChain,
  startAppleApi,
  type AppleApiServer,
  type AppleTestChain,
} from '../apple-fixture.js';

/** Helpers of the store payment tests: a service, a real game server, an app with store SKUs and a player. */

export const APPLE_SKU = 'com.game.gems100';
export const GOOGLE_SKU = 'gems_100_android';
/** The Pub/Sub push subscription's authentication as the Google tests configure it. */
export const AUDIENCE = 'https://pay.example.com/notify/v1/google';
export const PUSHER = 'pubsub-push@test-project.iam.gserviceaccount.com';

export interface StoreWorld {
  svc: TestService;
  game: GameServer;
  app: any;
  login: Login;
  /** The 2.4 / 2.5 bodies the game received, in order. */
  callbacks(): any[];
  close(): Promise<void>;
}

/** A test service (env: the stores' loopback fixtures), a game that accepts everything, an app and a logged-in player. */
export async function startStoreWorld(env: Record<string, string>): Promise<StoreWorld> {
  const svc = await startTestService({ DELIVERY_POLL_MS: '50', STORE_RECONCILE_INTERVAL_MS: '0', ...env });
  let userId = '';
  const game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && path === '/game/role') {
      const q = new URL(req.url, 'http://x').searchParams;
      const body = { userId, roleId: q.get('roleId'), name: 'Aria', avatar: 'https://g.example/a.png' };
      return {
        status: 200,
        body: JSON.stringify({ ...body, roleLv: 1, serverId: q.get('serverId'), serverName: 'S1' }),
      };
    }
    if (req.method === 'POST' && path === '/game/pre-order') return { status: 200, body: '' };
    if (req.method === 'POST' && path === '/game/pay/callback') return { status: 200, body: '{"code":"SUCCESS"}' };
    return { status: 404, body: '{}' };
  });
  const app = await appWithProducts(svc, {
    callbackUrls: { default: `${game.url}/game/pay/callback` },
    roleQueryUrl: `${game.url}/game/role`,
    preOrderCheckUrl: `${game.url}/game/pre-order`,
  });
  const login = await guestLogin(svc, app.clientId);
  userId = login.userId;
  const callbacks = () =>
    game.requests.filter((r: GameRequest) => r.url === '/game/pay/callback').map((r) => JSON.parse(r.body));
  return {
    svc,
    game,
    app,
    login,
    callbacks,
    async close() {
      await svc.close();
      await game.close();
    },
  };
}

/** A store world whose app takes Google Play through the loopback Google fixture; `close` stops both. */
export async function startGoogleWorld(): Promise<{ w: StoreWorld; google: GoogleServer }> {
  const account = makeServiceAccount();
  const google = await startGoogle(account);
  const world = await startStoreWorld({
    GOOGLE_API_ROOT_URL: google.url,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_CERTS_URL: google.certsUrl,
  });
  const put = await world.svc.admin('PUT', `/apps/${world.app.appId}/store-settings/google`, {
    packageName: TEST_PACKAGE,
    serviceAccountJson: JSON.stringify(account),
    pushAudience: AUDIENCE,
    pushServiceAccountEmail: PUSHER,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const w: StoreWorld = {
    ...world,
    async close() {
      await world.close();
      await google.close();
    },
  };
  return { w, google };
}

/** A client order of one gems_100 at a store channel; answers the 2.3 `data` ({order, payment, created}). */
export async function placeStoreOrder(w: StoreWorld, channel: 1 | 2, quantity = 1) {
  const res = await macRequest(w.svc, 'POST', `/order/v1/client/orders?clientId=${w.app.clientId}`, w.login, {
    body: {
      orderId: `o-${Math.random().toString(36).slice(2)}`,
      products: [{ productCode: 'gems_100', quantity }],
      game_server_id: 's1',
      game_role_id: 'role-1',
      game_ext: '{"from":"shop"}',
      platform: channel,
      channel,
      paymentType: 0,
      sdkVersion: '6.9.0',
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

/** POST as the player (MAC token) to a store purchase route of an order. */
export function submit(w: StoreWorld, trxNo: number, what: 'apple-transactions' | 'google-purchases', body: unknown) {
  return macRequest(w.svc, 'POST', `/order/v1/client/orders/${trxNo}/${what}?clientId=${w.app.clientId}`, w.login, {
    body,
  });
}

export async function arrears(w: StoreWorld): Promise<any[]> {
  const res = await macRequest(w.svc, 'GET', `/order/v1/user/arrears?clientId=${w.app.clientId}`, w.login);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.list;
}

export async function payArrear(w: StoreWorld, tradeNo: number) {
  const res = await macRequest(
    w.svc,
    'POST',
    `/order/v1/user/arrears/${tradeNo}/pay?clientId=${w.app.clientId}`,
    w.login,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

/** POST to a notification endpoint; answers status and JSON body. */
export async function notify(
  w: StoreWorld,
  store: 'apple' | 'google',
  body: unknown,
  headers: Record<string, string> = {},
  appId: number = w.app.appId,
) {
  const res = await w.svc.fetch(`/notify/v1/${store}/${appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Rows that a refused request must leave alone. */
export async function paymentCounts(w: StoreWorld) {
  return {
    orders: await count(w.svc, 'orders'),
    outbox: await count(w.svc, 'outbox'),
    supplements: await count(w.svc, 'supplements'),
  };
}

export async function storeMessages(w: StoreWorld, query = ''): Promise<any[]> {
  const res = await w.svc.admin('GET', `/apps/${w.app.appId}/store-messages${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.messages;
}

/** A fresh App Store transaction id (Apple's are numeric strings). */
export const txId = () => String(2_000_000_000_000_000 + crypto.randomInt(1e9));

/** Asserts a refused answer: status, 2.3 code and the failed check (data.storeError, or data.reason of a notification). */
export function refused(res: { status: number; body: any }, status: number, code: number, check?: string): void {
  assert.deepEqual([res.status, res.body.code], [status, code], JSON.stringify(res.body));
  if (check) assert.equal(res.body.data.storeError ?? res.body.data.reason, check, JSON.stringify(res.body));
}

/**
 * A store world whose app has App Store settings: the test's own certificate chain as the root, and a fake App Store
 * Server API on loopback with its API key (`env` adds to the service's).
 */
export async function startAppleWorld(
  env: Record<string, string> = {},
): Promise<{ w: StoreWorld; chain: AppleTestChain; api: AppleApiServer }> {
  const chain = await makeAppleChain();
  const key = await makeApiKey();
  const api = await startAppleApi(key);
  const w = await startStoreWorld({ APPLE_ONLINE_CHECKS: 'false', APPLE_API_BASE_URL: api.url, ...env });
  const put = await w.svc.admin('PUT', `/apps/${w.app.appId}/store-settings/apple`, {
    bundleId: TEST_BUNDLE_ID,
    environment: 'Sandbox',
    rootCertificatesPem: new crypto.X509Certificate(chain.root).toString(),
    apiIssuerId: key.issuerId,
    apiKeyId: key.keyId,
    apiPrivateKey: key.privateKeyPem,
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return { w, chain, api };
}
