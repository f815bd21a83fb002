// Ceiling of an admin read (GET /admin/v1/apps/{appId}, bearer): the token compared in constant time (digests), then
// one read of the app's row by primary key, on a table of the service's shape (the columns of `apps`), answered as
// ours answers it. No session or operator-token lookup (the break-glass ADMIN_TOKEN path), no permission table, no
// audit (a read is not audited). Reported beside the hello world: the 3x target of issue 20 is against the hello
// world, and this shows what one indexed read costs on each backend before any framework work.
import crypto from 'node:crypto';
import { md5App, openDatabase, serve } from './shared.mjs';

const ADMIN_TOKEN = crypto.randomBytes(24).toString('base64url');
const digest = (s) => crypto.createHash('sha256').update(s).digest();
const expected = digest(ADMIN_TOKEN);
const TABLE = `create table apps (app_id int8 primary key, client_id text not null unique, name text not null,
  region text not null, status text not null, secret_enc text not null, previous_secret_enc text,
  previous_secret_expires_at int8, secret_rotated_at int8 not null, callback_urls text not null,
  role_query_url text, role_list_url text, pre_order_check_url text, cancellation_callback_url text, partner_url text,
  allowed_ips text not null, union_id_enabled int not null, created_at int8 not null, updated_at int8 not null)`;
const now = Date.now();
const ROW = [
  md5App.appId,
  md5App.clientId,
  'bench admin read',
  'overseas',
  'active',
  'v2.x.y.z.w',
  null,
  null,
  now,
  '{}',
];
const REST = [null, null, null, null, null, '[]', 0, now, now];

const iso = (ms) => (ms === null ? null : new Date(Number(ms)).toISOString());
const toApp = (r) => ({
  appId: Number(r.app_id),
  clientId: r.client_id,
  name: r.name,
  region: r.region,
  status: r.status,
  callbackUrls: JSON.parse(r.callback_urls),
  roleQueryUrl: r.role_query_url,
  roleListUrl: r.role_list_url,
  preOrderCheckUrl: r.pre_order_check_url,
  cancellationCallbackUrl: r.cancellation_callback_url,
  partnerUrl: r.partner_url,
  allowedIps: JSON.parse(r.allowed_ips),
  unionIdEnabled: !!r.union_id_enabled,
  secretRotatedAt: iso(r.secret_rotated_at),
  previousSecretExpiresAt: iso(r.previous_secret_expires_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const database = await openDatabase();
const values = [...ROW, ...REST];
const insert = `insert into apps values (${values.map((_, i) => `$${i + 1}`).join(', ')})`;
let byId;
if (database.kind === 'postgres') {
  await database.durable.query(TABLE);
  await database.durable.query(insert, values);
  byId = async (id) =>
    (await database.durable.query({ name: 'app_by_id', text: 'select * from apps where app_id = $1', values: [id] }))
      .rows[0];
} else {
  database.db.exec(TABLE);
  database.db.prepare(insert.replace(/\$\d+/g, '?')).run(values);
  const select = database.db.prepare('select * from apps where app_id = ?');
  byId = async (id) => select.get(id);
}

await serve(
  async (app) => {
    app.get('/admin-token', async () => ({ token: ADMIN_TOKEN, appId: md5App.appId }));
    app.get('/admin/v1/apps/:appId', async (req, reply) => {
      const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
      if (!m || !crypto.timingSafeEqual(digest(m[1]), expected)) return reply.code(401).send({ code: 40101 });
      const row = await byId(Number(req.params.appId));
      if (!row) return reply.code(404).send({ code: 40400 });
      return toApp(row);
    });
  },
  () => database.close(),
);
