// Ceiling of 4.5 (GET /order/v1/user/arrears, 5.2): the MAC checked, then the
// one-time nonce recorded durably and one indexed read of the player's
// pending supplement orders (store refunds: channel type 1 or 2, supply
// status 1), the answer mapped like ours (orders/notifications.ts
// pendingSupplement). PostgreSQL: the nonces and the reads of one event-loop
// turn in one statement (one round trip per batch; the nonce on the relaxed
// pool, as ours records nonces). SQLite: one transaction per batch for both.
// SUPPLEMENTS_PER_PLAYER rows are seeded for each player (the bench seeds
// as many in our service's database).
import { MAC_REFUSED, freshOf, groupCommit, macCredentials, md5App, openDatabase, serve, tokens } from './shared.mjs';

const PER_PLAYER = Number(process.env.SUPPLEMENTS_PER_PLAYER ?? 1);
const COLUMNS =
  'refund_trx_no, app_id, user_id, product_id, currency, out_trade_no, bank_trade_no, refund_minor, channel_id, channel_type, platform, supply_status';
const TABLE = `create table supplements (refund_trx_no int8 primary key, app_id int8 not null, user_id text not null,
  product_id text not null, currency text not null, out_trade_no text not null unique, bank_trade_no text,
  refund_minor int8 not null, channel_id int not null, channel_type int not null, platform int not null,
  supply_status int not null);
  create index supplements_arrears on supplements (app_id, user_id, supply_status)`;
const seedRows = [...tokens.values()].flatMap((t, p) =>
  Array.from({ length: PER_PLAYER }, (_, k) => {
    const n = p * PER_PLAYER + k + 1;
    return [n, md5App.appId, t.userId, 'gems_100', 'USD', `GPA.${1000 + n}`, null, 99, 1, 1, 2, 1];
  }),
);

const pendingSupplement = (s) => ({
  tradeNo: Number(s.refund_trx_no),
  productId: s.product_id,
  currency: s.currency,
  outTradeNo: s.out_trade_no,
  bankTradeNo: s.bank_trade_no,
  refundAmount: Number(s.refund_minor) / 100,
  channelId: s.channel_id,
  channelType: s.channel_type,
  supplyStatus: 1,
  platform: s.platform,
});

const database = await openDatabase();
let read;
if (database.kind === 'postgres') {
  await database.durable.query(TABLE);
  for (const row of seedRows)
    await database.durable.query(
      `insert into supplements (${COLUMNS}) values (${row.map((_, i) => `$${i + 1}`).join(', ')})`,
      row,
    );
  // Fresh nonces (scope and nonce) and the supplements of the batch's players, in one answer.
  const text = `with fresh as (
      insert into nonces (scope, nonce, expires_at) select * from unnest($1::text[], $2::text[], $3::int8[])
      on conflict (scope, nonce) do nothing returning scope, nonce)
    select scope, nonce, null::int8 as refund_trx_no, null as user_id, null as product_id, null as currency,
      null as out_trade_no, null as bank_trade_no, null::int8 as refund_minor, null::int as channel_id,
      null::int as channel_type, null::int as platform from fresh
    union all
    select null, null, refund_trx_no, user_id, product_id, currency, out_trade_no, bank_trade_no, refund_minor,
      channel_id, channel_type, platform from supplements
    where app_id = $4 and user_id = any($5::text[]) and supply_status = 1 and channel_type in (1, 2)`;
  read = groupCommit(async (rows) => {
    const res = await database.relaxed.query({
      name: 'ceiling_arrears',
      text,
      values: [
        rows.map((r) => r.scope),
        rows.map((r) => r.nonce),
        rows.map((r) => r.expiresAt),
        md5App.appId,
        [...new Set(rows.map((r) => r.userId))],
      ],
    });
    const fresh = freshOf(
      rows,
      res.rows.filter((r) => r.scope !== null),
    );
    const byUser = Map.groupBy(
      res.rows.filter((r) => r.scope === null),
      (r) => r.user_id,
    );
    return rows.map((r, i) => (fresh[i] ? (byUser.get(r.userId) ?? []) : null));
  }, 4);
} else {
  const { db } = database;
  db.exec(TABLE);
  const insert = db.prepare(`insert into supplements (${COLUMNS}) values (${COLUMNS.replace(/\w+/g, '?')})`);
  db.transaction(() => seedRows.forEach((row) => insert.run(row)))();
  const nonce = db.prepare('insert or ignore into nonces (scope, nonce, expires_at) values (?, ?, ?)');
  const select = db.prepare(
    'select * from supplements where app_id = ? and user_id = ? and supply_status = 1 and channel_type in (1, 2)',
  );
  const tx = db.transaction((rows) =>
    rows.map((r) =>
      nonce.run(r.scope, r.nonce, r.expiresAt).changes === 1 ? select.all(md5App.appId, r.userId) : null,
    ),
  );
  read = groupCommit(async (rows) => tx(rows), 1);
}

await serve(async (app) => {
  app.get('/order/v1/user/arrears', async (req, reply) => {
    const mac = macCredentials(req, 'GET');
    const rows =
      mac &&
      (await read({ scope: `mac:${mac.kid}`, nonce: mac.nonce, expiresAt: mac.expiresAt, userId: mac.token.userId }));
    if (!rows) return reply.code(401).send(MAC_REFUSED);
    return { code: 200, msg: 'success', detail: '', data: { list: rows.map(pendingSupplement) } };
  });
}, database.close);
