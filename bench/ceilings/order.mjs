// Ceiling of order placement (POST /order/v1/client/orders, 5.2),
// PostgreSQL: the MAC checked and its one-time nonce recorded durably (as
// profile.mjs), the body's product looked up in a Map, then the game's say
// before an order exists, as 4.8 and 4.10 require and ours asks it: the role
// query (GET ROLE_URL?roleId=&serverId=) must answer the token's user id,
// then the pre-order check (POST PRE_ORDER_URL) must answer 200. Each call is
// signed with RSA-2048 (5.3) on a pool of SIGN_WORKERS threads (one per
// core, as the service's SignPool) and sent over keep-alive to the game
// fixture. Then the order is written in one statement per batch of
// concurrent orders (group commit, one in flight, committed before the
// answer), deduplicated by the client's orderId per app (2.4 rule 5).
import crypto from 'node:crypto';
import { callbackHeaders, callbackSignBaseText } from '../../packages/sdk/dist/index.js';
import {
  MAC_REFUSED,
  SignPool,
  call,
  groupCommit,
  macCredentials,
  md5App,
  nonceRecorder,
  openDatabase,
  platformKey,
  serve,
} from './shared.mjs';

const roleUrl = new URL(process.env.ROLE_URL);
const preOrderUrl = new URL(process.env.PRE_ORDER_URL);
const products = new Map([['gems_100', { priceMinor: 99, currency: 'USD' }]]);

const database = await openDatabase();
const recordNonce = nonceRecorder(database);
const { durable } = database;
await durable.query(`create table orders (trx_no bigserial primary key, app_id int8 not null, out_trx_no text not null,
  user_id text not null, role_id text not null, server_id text not null, products jsonb not null,
  total_minor int8 not null, currency text not null, status int not null, platform int not null, channel int not null,
  payment_type int not null, created_at int8 not null, unique (app_id, out_trx_no))`);

const COLUMNS = [
  'outTrxNo',
  'userId',
  'roleId',
  'serverId',
  'products',
  'totalMinor',
  'platform',
  'channel',
  'paymentType',
];
const TYPES = ['text', 'text', 'text', 'text', 'jsonb', 'int8', 'int', 'int', 'int'];
const INSERT = `insert into orders (app_id, out_trx_no, user_id, role_id, server_id, products, total_minor, platform,
    channel, payment_type, currency, status, created_at)
  select $10, *, 'USD', 1, $11 from unnest(${TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
  on conflict (app_id, out_trx_no) do nothing returning trx_no, out_trx_no`;
const writeOrders = groupCommit(async (rows) => {
  const res = await durable.query({
    name: 'ceiling_orders',
    text: INSERT,
    values: [...COLUMNS.map((c) => rows.map((r) => r[c])), md5App.appId, Date.now()],
  });
  const trxNo = new Map(res.rows.map((r) => [r.out_trx_no, Number(r.trx_no)]));
  // null: an order with this orderId was placed before (answered without a new row).
  return rows.map((r) => trxNo.get(r.outTrxNo) ?? null);
}, 1);

const key = platformKey();
const signer = new SignPool(key.privateKey);
/** One signed call to the game (5.3): the URL's path (no query) and the exact body bytes are signed. */
async function gameCall(method, url, body) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = crypto.randomUUID();
  const signature = await signer.sign(callbackSignBaseText({ method, path: url.pathname, timestamp, nonce, body }));
  return call(url, {
    method,
    headers: {
      ...callbackHeaders({ timestamp, nonce, signature, keyId: key.kid }),
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json',
    },
    body: method === 'POST' ? body : undefined,
  });
}

const refuse = (reply, status, code, msg) => reply.code(status).send({ code, msg, detail: '' });

await serve(
  async (app) => {
    app.post('/order/v1/client/orders', async (req, reply) => {
      const mac = macCredentials(req, 'POST');
      if (!mac || !(await recordNonce(`mac:${mac.kid}`, mac.nonce, mac.expiresAt)))
        return reply.code(401).send(MAC_REFUSED);
      const b = req.body;
      const line = b?.products?.length === 1 ? b.products[0] : null;
      const product = line && products.get(line.productCode);
      if (
        !product ||
        !(Number.isInteger(line.quantity) && line.quantity > 0) ||
        typeof b.orderId !== 'string' ||
        typeof b.game_role_id !== 'string' ||
        typeof b.game_server_id !== 'string'
      )
        return refuse(reply, 400, 40000, 'invalid order');
      // 4.8: the role must be the token's user's.
      const role = await gameCall(
        'GET',
        new URL(
          `${roleUrl.pathname}?${new URLSearchParams({ roleId: b.game_role_id, serverId: b.game_server_id })}`,
          roleUrl,
        ),
        '',
      );
      if (role.status !== 200 || JSON.parse(role.body).userId !== mac.token.userId)
        return refuse(reply, 403, 40301, 'role query failed');
      // 4.10: the game allows the line.
      const check = await gameCall(
        'POST',
        preOrderUrl,
        JSON.stringify({
          roleId: b.game_role_id,
          serverId: b.game_server_id,
          productSkuCode: line.productCode,
          quantity: line.quantity,
          ...(b.game_ext !== undefined ? { extras: b.game_ext } : {}),
        }),
      );
      if (check.status !== 200) return refuse(reply, 403, 40302, 'pre-order check blocked');
      const totalMinor = product.priceMinor * line.quantity;
      const trxNo = await writeOrders({
        outTrxNo: b.orderId,
        userId: mac.token.userId,
        roleId: b.game_role_id,
        serverId: b.game_server_id,
        products: JSON.stringify(b.products),
        totalMinor,
        platform: b.platform,
        channel: b.channel,
        paymentType: b.paymentType,
      });
      return {
        code: 200,
        msg: trxNo === null ? 'the same order was placed before' : 'order placed',
        detail: '',
        data: {
          order: {
            trxNo,
            orderId: b.orderId,
            status: 1,
            userId: mac.token.userId,
            roleId: b.game_role_id,
            serverId: b.game_server_id,
            products: b.products,
            totalAmount: totalMinor / 100,
            currency: product.currency,
          },
        },
      };
    });
  },
  async () => {
    await signer.close();
    await database.close();
  },
);
