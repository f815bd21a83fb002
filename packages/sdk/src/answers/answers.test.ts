import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import {
  acceptNotification,
  allowPreOrder,
  blockPreOrder,
  parsePreOrderCheck,
  parseRoleListQuery,
  parseRoleQuery,
  PayloadParseError,
  PRE_ORDER_CODE_MEANINGS,
  PreOrderCode,
  rejectNotification,
  roleListAnswer,
  roleListFailure,
  roleQueryAnswer,
  sendAnswer,
  type Answer,
} from '../index.js';
import { close, listen } from '../handlers/handlers.testlib.js';

describe('payment callback acks (4.7)', () => {
  it('accept is 200; reject is 500 or a 4xx with {code: "SUCCESS", msg} as 4.7 lists it', () => {
    assert.deepEqual(acceptNotification(), { status: 200, body: { code: 'SUCCESS', msg: 'ok' } });
    assert.deepEqual(rejectNotification('inventory service down'), {
      status: 500,
      body: { code: 'SUCCESS', msg: 'inventory service down' },
    });
    assert.equal(rejectNotification('bad', 409).status, 409);
    for (const status of [200, 204, 302, 501, 503, 399, 400.5])
      assert.throws(() => rejectNotification('x', status), RangeError);
  });
});

describe('role query (4.8) and role list (4.9)', () => {
  it('role query: 200 with the role, nullable fields as null; refuses a role without the platform user id', () => {
    assert.deepEqual(
      roleQueryAnswer({ userId: '90001', roleId: 'r1', name: 'Aria', avatar: 'https://a/1.png', roleLv: 12 }),
      {
        status: 200,
        body: {
          userId: '90001',
          roleId: 'r1',
          name: 'Aria',
          avatar: 'https://a/1.png',
          roleLv: 12,
          serverId: null,
          serverName: null,
        },
      },
    );
    assert.throws(() => roleQueryAnswer({ userId: '', roleId: 'r1', name: 'n', avatar: '' }), /userId/);
    assert.throws(() => roleQueryAnswer({ userId: 'u', roleId: '', name: 'n', avatar: '' }), /roleId/);
  });

  it('role list: 200 with results; no role is HTTP 401 with empty results; other failures carry a player-facing msg', () => {
    const ok = roleListAnswer([{ roleId: 'r1', name: 'Aria', avatar: '', serverId: 's1' }]);
    assert.deepEqual(ok, {
      status: 200,
      body: {
        code: 200,
        msg: 'success',
        detail: '',
        results: [{ roleId: 'r1', name: 'Aria', avatar: '', roleLv: null, serverId: 's1', serverName: null }],
      },
    });
    const none = roleListAnswer([]);
    assert.equal(none.status, 401);
    assert.deepEqual(none.body?.results, []);
    assert.equal(roleListAnswer([], { msg: 'Create a role first.' }).body?.msg, 'Create a role first.');
    assert.deepEqual(roleListFailure(503, 'Maintenance until 10:00.', 'db migration'), {
      status: 503,
      body: { code: 503, msg: 'Maintenance until 10:00.', detail: 'db migration', results: [] },
    });
    assert.throws(() => roleListFailure(200, 'x'), RangeError);
    assert.throws(() => roleListAnswer([{ roleId: '', name: '', avatar: '', serverId: 's' }]), /roleId/);
  });

  it('parses the query of 4.8 and 4.9 from URLSearchParams or a parsed query object', () => {
    assert.deepEqual(parseRoleQuery(new URLSearchParams('roleId=r1&serverId=s1')), { roleId: 'r1', serverId: 's1' });
    assert.deepEqual(parseRoleQuery({ roleId: 'r1', serverId: 's1' }), { roleId: 'r1', serverId: 's1' });
    assert.deepEqual(parseRoleListQuery(new URLSearchParams('userId=90001')), { userId: '90001', serverId: null });
    assert.deepEqual(parseRoleListQuery({ userId: '90001', serverId: 's2' }), { userId: '90001', serverId: 's2' });
    const fieldOf = (f: () => unknown): string => {
      try {
        f();
        return 'ok';
      } catch (e) {
        assert.ok(e instanceof PayloadParseError);
        return `${e.field} ${e.problem}`;
      }
    };
    assert.equal(
      fieldOf(() => parseRoleQuery(new URLSearchParams('roleId=r1'))),
      'serverId is required',
    );
    assert.equal(
      fieldOf(() => parseRoleQuery(new URLSearchParams('roleId=&serverId=s'))),
      'roleId is required',
    );
    assert.equal(
      fieldOf(() => parseRoleQuery(new URLSearchParams('roleId=a&roleId=b&serverId=s'))),
      'roleId must be given once',
    );
    assert.equal(
      fieldOf(() => parseRoleQuery({ roleId: ['a', 'b'], serverId: 's' })),
      'roleId must be given once',
    );
    assert.equal(
      fieldOf(() => parseRoleQuery({ roleId: 5, serverId: 's' })),
      'roleId must be a string',
    );
    assert.equal(
      fieldOf(() => parseRoleListQuery({})),
      'userId is required',
    );
  });
});

describe('pre-order check (4.10)', () => {
  it('the section 7 codes are named constants with their meanings', () => {
    assert.equal(PreOrderCode.PURCHASE_LIMIT_REACHED, 105);
    assert.deepEqual(
      Object.values(PreOrderCode).sort((a, b) => a - b),
      [101, 102, 103, 104, 105, 106, 107, 112, 113, 114, 115],
    );
    for (const code of Object.values(PreOrderCode)) assert.ok(PRE_ORDER_CODE_MEANINGS[code].length > 0);
    assert.match(PRE_ORDER_CODE_MEANINGS[PreOrderCode.PURCHASE_LIMIT_REACHED], /purchase limit/);
  });

  it('allow is 200; block is non-200 with {code, msg, detail}', () => {
    assert.equal(allowPreOrder().status, 200);
    assert.deepEqual(blockPreOrder(PreOrderCode.PURCHASE_LIMIT_REACHED, { detail: 'bought 5 of 5 today' }), {
      status: 400,
      body: { code: 105, msg: null, detail: 'bought 5 of 5 today' },
    });
    assert.deepEqual(blockPreOrder(9001, { detail: 'custom', msg: 'Come back tomorrow.', status: 403 }), {
      status: 403,
      body: { code: 9001, msg: 'Come back tomorrow.', detail: 'custom' },
    });
    assert.throws(() => blockPreOrder(105, { detail: 'x', status: 200 }), RangeError);
    assert.throws(() => blockPreOrder(1.5, { detail: 'x' }), RangeError);
  });

  it('parses the request body, naming a bad field', () => {
    const body = { roleId: 'r1', serverId: 's1', productSkuCode: 'gems.100', quantity: 3 };
    assert.deepEqual(parsePreOrderCheck(JSON.stringify(body)), { ...body, extras: null });
    assert.equal(parsePreOrderCheck({ ...body, extras: 'x' }).extras, 'x');
    const fieldOf = (input: unknown): string => {
      try {
        parsePreOrderCheck(input);
        return 'ok';
      } catch (e) {
        assert.ok(e instanceof PayloadParseError);
        return e.field;
      }
    };
    assert.equal(fieldOf({ ...body, quantity: '3' }), 'quantity');
    assert.equal(fieldOf({ ...body, quantity: 0 }), 'quantity');
    assert.equal(fieldOf({ ...body, productSkuCode: undefined }), 'productSkuCode');
    assert.equal(fieldOf('[]'), 'body');
  });
});

describe('sendAnswer', () => {
  it('writes JSON with its status, and no body for 204', async () => {
    let answer: Answer = blockPreOrder(105, { detail: 'limit' });
    const server = http.createServer((_req, res) => sendAnswer(res, answer));
    const base = await listen(server);
    try {
      let r = await fetch(base);
      assert.equal(r.status, 400);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await r.json(), { code: 105, msg: null, detail: 'limit' });
      answer = { status: 204 };
      r = await fetch(base);
      assert.equal(r.status, 204);
      assert.equal(await r.text(), '');
    } finally {
      await close(server);
    }
  });
});
