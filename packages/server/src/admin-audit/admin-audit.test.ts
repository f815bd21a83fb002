import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../testing/child.js';
import { TEST_DATABASE_URL } from '../testing/database.js';
import { startTestService, type TestService } from '../testing/service.js';
import { operatorToken } from '../testing/operators.js';

/**
 * The admin API's audit trail: who changed what (the authenticated operator; X-Operator only as a note), recorded
 * around each changing request.
 */
describe('admin audit trail', () => {
  let svc: TestService;
  const tokens: Record<string, string> = {};
  before(async () => {
    svc = await startTestService();
    for (const name of ['alice', 'bob', 'pager', 'dave']) tokens[name] = await operatorToken(svc, name, 'admin');
  });
  after(async () => {
    await svc.close();
  });

  /** `as`: the operator whose token calls (default the break-glass ADMIN_TOKEN); `operator`: an X-Operator header. */
  async function call(
    method: string,
    path: string,
    opts: { body?: unknown; as?: string; operator?: string; token?: string } = {},
  ) {
    const token = opts.token ?? (opts.as !== undefined ? tokens[opts.as]! : svc.adminToken);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (opts.operator !== undefined) headers['x-operator'] = opts.operator;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await svc.fetch(`/admin/v1${path}`, {
      method,
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any, requestId: res.headers.get('x-request-id') };
  }
  const actions = async (q = '') => {
    const res = await call('GET', `/admin-actions${q ? `?${q}` : ''}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  /** The status is completed after the answer: wait for it. */
  async function settled(q = ''): Promise<any> {
    for (let i = 0; i < 100; i++) {
      const list = await actions(q);
      if (list.actions.every((a: any) => a.status !== null)) return list;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('admin actions never completed');
  }

  it('records each changing request with its authenticated operator, route, path, request id and status; reads are not recorded', async () => {
    const created = await call('POST', '/apps', { body: { name: 'Audited' }, as: 'alice' });
    assert.equal(created.status, 201);
    await call('GET', `/apps/${created.body.appId}`, { as: 'alice' });
    const renamed = await call('PATCH', `/apps/${created.body.appId}`, {
      body: { name: 'Audited 2' },
      as: 'bob',
      // The header names someone else: it is kept as a note, never as the operator.
      operator: 'alice',
    });
    assert.equal(renamed.status, 200);
    const { actions: list } = await settled();
    // (Not the events of their invitations, each accepted under its own name.)
    const mine = list.filter(
      (a: any) => (a.operator === 'alice' || a.operator === 'bob') && a.event !== 'invitation-accepted',
    );
    assert.deepEqual(
      mine.map((a: any) => [a.operator, a.method, a.route, a.path, a.status]),
      [
        ['bob', 'PATCH', '/admin/v1/apps/:appId', `/admin/v1/apps/${created.body.appId}`, 200],
        ['alice', 'POST', '/admin/v1/apps', '/admin/v1/apps', 201],
      ],
    );
    assert.deepEqual(
      mine.map((a: any) => a.note),
      ['X-Operator: alice', null],
    );
    assert.equal(mine[1].requestId, created.requestId);
    assert.match(mine[1].ip, /127\.0\.0\.1/);
    assert.ok(Date.parse(mine[0].finishedAt) >= Date.parse(mine[0].at));
    assert.ok(!JSON.stringify(list).includes(created.body.secret), 'no request or answer body is kept');
    assert.deepEqual(
      (await actions('operator=alice')).actions.map((a: any) => a.method),
      ['POST'],
    );
    assert.deepEqual(
      (await actions('operator=bob&method=POST')).actions.filter((a: any) => a.event !== 'invitation-accepted'),
      [],
    );
  });

  it('takes an X-Operator outside ASCII percent-encoded, and keeps it decoded in the note', async () => {
    assert.equal(
      (await call('POST', '/apps', { body: { name: 'unicode' }, operator: encodeURIComponent('Zo\u00eb M\u00fcller') }))
        .status,
      201,
    );
    const { actions: list } = await settled();
    assert.deepEqual([list[0].operator, list[0].note], ['ADMIN_TOKEN', 'X-Operator: Zo\u00eb M\u00fcller']);
  });

  it('records a change the service refused in its handler with that status, and the break-glass token as ADMIN_TOKEN', async () => {
    const refused = await call('POST', '/orders/999999/cancel', { body: {} });
    assert.equal(refused.status, 404);
    const { actions: list } = await settled();
    assert.deepEqual(
      [list[0].operator, list[0].note, list[0].route, list[0].status],
      ['ADMIN_TOKEN', null, '/admin/v1/orders/:trxNo/cancel', 404],
    );
  });

  it('records no action for a request refused before its handler (bad token, bad body, bad X-Operator); the bad token is recorded as a refusal', async () => {
    const before = (await settled()).actions.length;
    assert.equal(
      (await call('POST', '/apps', { body: { name: 'x' }, token: 'not-the-admin-token-at-all' })).status,
      401,
    );
    assert.equal((await call('POST', '/apps', { body: { nope: 1 }, as: 'bob' })).status, 400);
    for (const operator of [
      'x'.repeat(101),
      '   ',
      'caf\u00e9',
      '%E0%A4%A',
      '%0Aevil',
      encodeURIComponent('\u00e9'.repeat(101)),
    ]) {
      for (const [method, path, body] of [
        ['POST', '/apps', { name: 'y' }],
        ['GET', '/apps', undefined],
      ] as const) {
        const res = await svc.fetch(`/admin/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${svc.adminToken}`,
            'x-operator': operator,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        assert.equal(res.status, 400, `${method} X-Operator ${JSON.stringify(operator)}`);
        assert.match(((await res.json()) as any).detail, /^X-Operator: must be the operator's name/);
      }
    }
    const all = (await settled()).actions;
    const added = all.slice(0, all.length - before);
    assert.deepEqual(
      added.map((a: any) => [a.event, a.operator, a.note, a.status]),
      [['refused', '(unknown)', 'a bearer token that is neither an operator token nor the admin token', 401]],
    );
  });

  it('pages newest first and refuses bad filters', async () => {
    for (const name of ['p1', 'p2', 'p3']) await call('POST', '/apps', { body: { name }, as: 'pager' });
    const first = await settled('operator=pager&limit=2');
    assert.equal(first.actions.length, 2);
    assert.equal(first.nextBefore, first.actions[1].actionId);
    const second = await actions(`operator=pager&limit=2&before=${first.nextBefore}`);
    // The older entries: p1, and pager's own acceptance of its invitation (it set its own password and factor).
    assert.deepEqual(
      second.actions.map((a: any) => a.event ?? a.method),
      ['POST', 'invitation-accepted'],
    );
    const third = await actions(`operator=pager&limit=2&before=${second.nextBefore}`);
    assert.deepEqual([third.actions.length, third.nextBefore], [0, null]);
    const at = Date.parse(first.actions[1].at);
    assert.ok((await actions(`operator=pager&from=${at}`)).actions.length >= 2);
    assert.deepEqual((await actions(`operator=pager&to=${new Date(at - 60_000).toISOString()}`)).actions, []);
    for (const q of ['limit=0', 'method=GET', 'from=yesterday', 'before=x']) {
      const res = await call('GET', `/admin-actions?${q}`);
      assert.deepEqual([res.status, res.body.code], [400, 40000], q);
    }
  });

  it('lists the trail from the CLI', async () => {
    const schema = svc.services.database.schema;
    const env = {
      DATA_DIR: svc.config.dataDir,
      MASTER_KEY: svc.config.MASTER_KEY!,
      ADMIN_TOKEN: svc.adminToken,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
    await call('POST', '/apps', { body: { name: 'cli audited' }, as: 'dave' });
    await settled('operator=dave');
    const json = await runCli(env, ['--json', 'admin-actions', 'list', '--operator', 'dave']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(
      JSON.parse(json.stdout).actions.map((a: any) => [a.operator, a.event ?? a.method, a.path, a.status]),
      [
        ['dave', 'POST', '/admin/v1/apps', 201],
        // dave's own acceptance of its invitation.
        ['dave', 'invitation-accepted', '/admin/v1/invitation/accept', 200],
      ],
    );
    const text = await runCli(env, ['admin-actions', 'list', '--operator', 'dave']);
    assert.match(text.stdout, /^#\d+ {2}\S+Z {2}dave {2}POST \/admin\/v1\/apps {2}201 /);
    const bad = await runCli(env, ['admin-actions', 'list', '--method', 'GET']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /method: must be POST, PUT, PATCH, DELETE/);
  });
});
