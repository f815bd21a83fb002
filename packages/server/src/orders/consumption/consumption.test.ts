import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { md5Sign } from '@game-platform/sdk';
import { signMd5, startTestService, type TestService } from '../../testing/service.js';
import { counts } from '../../testing/orders/orders.js';
import { consumptionForward } from './consumption-notices.store.js';

const PATH = '/order/v1/game/pay/notify';

describe('4.6 in-game consumption notice', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService();
    app = await svc.createApp({ partnerUrl: 'https://partner.example/consume' });
  });
  after(async () => {
    await svc.close();
  });

  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const notice = (extra: Record<string, string | number> = {}) => ({
    userId: '1001',
    roleId: 'r-1',
    serverId: 's1',
    productCode: 'gems_100',
    appId: app.appId as number,
    ...extra,
  });
  const signed = (
    params: Record<string, string | number>,
    opts: { timestamp?: number; nonce?: string; secret?: string } = {},
  ) =>
    signMd5(params, opts.secret ?? app.secret, {
      timestamp: opts.timestamp ?? nowSeconds(),
      ...(opts.nonce ? { nonce: opts.nonce } : {}),
    });

  async function post(body: unknown) {
    const res = await svc.fetch(PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function refused(body: unknown, status: number, code: number, detail: RegExp) {
    const before = await counts(svc);
    const res = await post(body);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.code, code);
    assert.match(res.body.detail, detail);
    assert.deepEqual(await counts(svc), before, 'nothing written');
  }

  it('stores the notice and forwards it to the partner URL through the outbox', async () => {
    const body = signed(notice({ productCode: 'happy' }));
    assert.equal(typeof body.timestamp, 'number', 'timestamp is a number in 4.6');
    const res = await post(body);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { code: 200, msg: 'success', detail: 'notice stored', data: true });
    const rows = await svc.services.database.db
      .selectFrom('consumption_notices')
      .selectAll()
      .where('product_code', '=', 'happy')
      .execute();
    assert.equal(rows.length, 1);
    const event = await svc.services.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('event_id', '=', rows[0]!.event_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [event.type, event.target, event.app_id, event.server_id],
      ['consumption', 'partner', app.appId, 's1'],
    );
    const forwarded = JSON.parse(event.body);
    assert.deepEqual(forwarded, {
      noticeId: rows[0]!.notice_id,
      notifyId: event.event_id,
      notifyTime: forwarded.notifyTime,
      appId: app.appId,
      userId: '1001',
      roleId: 'r-1',
      serverId: 's1',
      productCode: 'happy',
      timestamp: body.timestamp,
    });
    assert.equal(event.body, JSON.stringify(forwarded), 'compact JSON, keys in the documented order');
    const listed = await svc.admin('GET', `/consumption-notices?appId=${app.appId}`);
    assert.ok(listed.body.notices.some((n: any) => n.productCode === 'happy'));
  });

  it('lists notices for the operator a page at a time, newest first', async () => {
    for (const productCode of ['page-a', 'page-b', 'page-c'])
      assert.equal((await post(signed(notice({ productCode })))).status, 200);
    const page = async (q: string) =>
      (await svc.admin('GET', `/consumption-notices?appId=${app.appId}&userId=1001&${q}`)).body;
    const all = (await page('limit=500')).notices.map((n: any) => n.noticeId);
    const first = await page('limit=2');
    assert.deepEqual(
      first.notices.map((n: any) => n.noticeId),
      all.slice(0, 2),
    );
    assert.equal(first.nextBefore, all[1]);
    const second = await page(`limit=2&before=${first.nextBefore}`);
    assert.deepEqual(
      second.notices.map((n: any) => n.noticeId),
      all.slice(2, 4),
    );
    assert.deepEqual(
      all,
      [...all].sort((a, b) => b - a),
      'newest first',
    );
    const bad = await svc.admin('GET', '/consumption-notices?limit=0');
    assert.deepEqual([bad.status, bad.body.code], [400, 40000]);
  });

  it('lets exactly one of many concurrent sends of one signed request through; the others are NONCE_REUSED', async () => {
    const body = signed(notice({ productCode: 'same-nonce' }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(body)));
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    for (const a of answers.filter((x) => x.status !== 200)) assert.equal(a.body.code, 40104);
    const rows = await svc.services.database.db
      .selectFrom('consumption_notices')
      .select('notice_id')
      .where('product_code', '=', 'same-nonce')
      .execute();
    assert.equal(rows.length, 1);
  });

  it('forwards ids with quotes, backslashes, control characters and non-ASCII exactly as JSON.stringify writes them', async () => {
    const roleId = 'r "q" \\ \u0001 tab\t ü 角色 😀';
    const res = await post(signed(notice({ productCode: 'escaped', roleId })));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const row = await svc.services.database.db
      .selectFrom('consumption_notices')
      .selectAll()
      .where('product_code', '=', 'escaped')
      .executeTakeFirstOrThrow();
    assert.equal(row.role_id, roleId);
    const event = await svc.services.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('event_id', '=', row.event_id)
      .executeTakeFirstOrThrow();
    const forwarded = JSON.parse(event.body);
    assert.equal(forwarded.roleId, roleId);
    assert.equal(event.body, JSON.stringify(forwarded));
  });

  it('stores a resent notice once (fresh nonce, same timestamp), also when resent concurrently', async () => {
    const ts = nowSeconds() - 5;
    const before = await counts(svc);
    const first = await post(signed(notice({ productCode: 'resent' }), { timestamp: ts }));
    assert.equal(first.body.detail, 'notice stored');
    const again = await post(signed(notice({ productCode: 'resent' }), { timestamp: ts }));
    assert.deepEqual([again.status, again.body.data, again.body.detail], [200, true, 'notice already stored']);
    const racing = await Promise.all(
      Array.from({ length: 8 }, () => post(signed(notice({ productCode: 'racing' }), { timestamp: ts }))),
    );
    assert.ok(
      racing.every((r) => r.status === 200 && r.body.data === true),
      JSON.stringify(racing.map((r) => r.body)),
    );
    const after = await counts(svc);
    assert.equal(after.notices - before.notices, 2);
    assert.equal(after.outbox - before.outbox, 2, 'forwarded once each');
    // A later purchase of the same product is a new notice.
    assert.equal(
      (await post(signed(notice({ productCode: 'resent' }), { timestamp: ts + 1 }))).body.detail,
      'notice stored',
    );
  });

  it('refuses a replay of the same request (same nonce)', async () => {
    const body = signed(notice({ productCode: 'replayed' }));
    assert.equal((await post(body)).status, 200);
    await refused(body, 401, 40104, /nonce was already used/);
    await refused(
      { ...signed(notice({ productCode: 'replayed-2' }), { nonce: body.nonce }) },
      401,
      40104,
      /nonce was already used/,
    );
  });

  it('refuses mis-signed notices', async () => {
    const body = signed(notice());
    await refused(
      { ...body, sign: body.sign.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) },
      401,
      40101,
      /sign does not match/,
    );
    await refused({ ...body, productCode: 'changed-after-signing' }, 401, 40101, /sign does not match/);
    await refused(signed(notice(), { secret: 'not-the-secret-not-the-secret-00' }), 401, 40101, /sign does not match/);
    await refused({ ...body, sign: 'xyz' }, 400, 40000, /^sign: must be 32 hexadecimal/);
    const other = await svc.createApp({ name: 'other' });
    await refused(signed(notice({ appId: other.appId })), 401, 40101, /sign does not match/);
  });

  it('refuses stale timestamps, a string timestamp and bad shapes', async () => {
    await refused(signed(notice(), { timestamp: nowSeconds() - 3600 }), 401, 40102, /outside|window/);
    await refused(signed(notice(), { timestamp: nowSeconds() + 3600 }), 401, 40102, /window/);
    const asString = { ...notice(), nonce: 'n-string-ts', timestamp: String(nowSeconds()) };
    await refused({ ...asString, sign: md5Sign(asString, app.secret) }, 400, 40000, /^timestamp: must be integer/);
    const { roleId: _, ...noRole } = notice();
    await refused(signed(noRole), 400, 40000, /^roleId: is required/);
    await refused(signed(notice({ colour: 'red' })), 400, 40000, /^colour: is not a known field/);
    await refused(signed(notice({ appId: '5' as unknown as number })), 400, 40000, /^appId: must be integer/);
    await refused(signed(notice({ userId: '' })), 400, 40000, /^userId: must NOT have fewer than 1 characters/);
  });

  it('refuses unknown and disabled apps', async () => {
    await refused(signed(notice({ appId: 999999 })), 401, 40105, /appId 999999 is not a known active app/);
    const disabled = await svc.createApp({ name: 'disabled' });
    await svc.admin('PATCH', `/apps/${disabled.appId}`, { status: 'disabled' });
    await new Promise((r) => setTimeout(r, 10));
    await refused(
      signed(notice({ appId: disabled.appId }), { secret: disabled.secret }),
      401,
      40105,
      /not a known active app/,
    );
  });

  it('builds the partner body with the same bytes in SQL (PostgreSQL) as in JavaScript (SQLite)', async () => {
    // Strings JSON escapes, or might: quotes, backslashes, control characters, U+2028, astral characters, '/'.
    const tricky = ['q"uote\\back', 'tab\tnl\ncr\r\u0001\u001f\u007f', 'ls\u2028ps\u2029 / </x>', '举报 🎮 é'];
    for (const [i, text] of tricky.entries()) {
      const body = signed(
        notice({ userId: text, roleId: `${text}-r`, serverId: text, productCode: `bytes-${i}-${text}` }),
      );
      assert.equal((await post(body)).status, 200);
      const row = await svc.services.database.db
        .selectFrom('consumption_notices')
        .selectAll()
        .where('product_code', '=', `bytes-${i}-${text}`)
        .executeTakeFirstOrThrow();
      const event = await svc.services.database.db
        .selectFrom('outbox')
        .select('body')
        .where('event_id', '=', row.event_id)
        .executeTakeFirstOrThrow();
      // This backend's build (SQL on PostgreSQL) against the JavaScript one, byte for byte.
      assert.equal(event.body, JSON.stringify(consumptionForward(row, row.event_id, row.received_at)), text);
    }
  });
});
