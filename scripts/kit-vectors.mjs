// The cases of kits/vectors.json (see scripts/gen-kit-vectors.mjs), each computed with the service's code.
import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const load = (p) => import(pathToFileURL(path.join(root, p)).href);

/** The clock of every callback case (Unix seconds) and the window the verifier is given. */
const NOW = 1767225600;
const WINDOW = 300;

export async function buildKitVectors(keys) {
  const sdk = await load('packages/sdk/dist/index.js');
  // What PlatformKeyService.signCall does for every call to a game: SDK sign base text, server RSA signer.
  const { rsaSignText } = await load('packages/server/dist/platform-keys/sign-pool.js');
  const { parseJsonBody } = await load('packages/server/dist/http/json-body.js');
  const [kidA, kidB] = Object.keys(keys);
  const privateKeys = Object.fromEntries(
    Object.entries(keys).map(([k, v]) => [k, crypto.createPrivateKey(v.privateKeyPem)]),
  );
  const signCall = (c, kid) => {
    const base = sdk.callbackSignBaseText(c);
    return { base, headers: sdk.callbackHeaders({ ...c, signature: rsaSignText(base, privateKeys[kid]), keyId: kid }) };
  };

  const payment = JSON.stringify({
    notifyId: 41,
    notifyTime: 1767225590000,
    appId: 1001,
    userId: 'u-77',
    trxNo: 9000000000041,
    trxType: 0,
    outTrxNo: 'order-41',
    products: [{ productCode: 'gem_60', quantity: 1, channelSkuCode: 'com.game.gem60' }],
    currency: 'USD',
    totalAmount: 0.99,
    attach: { gameServerId: 's1', gameRoleId: 'r-1', gameExt: 'x' },
  });
  const unicode =
    '{\n  "userId": "玩家-1",\n  "name": "勇者 🐉",\n  "note": "ünïcödé \\u00e9 é",\n  "products": [{"productCode": "宝石", "quantity": 2}]\n}\n';

  const callback = [];
  /** One case: `sign` is what the platform signed; `recv` overrides what the game receives. */
  const add = (description, o) => {
    const signed = {
      method: 'POST',
      path: '/pay/callback',
      timestamp: String(NOW - 5),
      nonce: 'n-' + callback.length,
      body: payment,
      ...o.sign,
    };
    const { base, headers } = signCall(signed, o.kid ?? kidA);
    const sent = { ...headers, ...o.headers };
    for (const k of Object.keys(sent)) if (sent[k] === undefined) delete sent[k];
    callback.push({
      description,
      publicKeys: o.publicKeys ?? [kidA, kidB],
      method: o.recv?.method ?? signed.method,
      path: o.recv?.path ?? signed.path,
      // [name, value] pairs as received, so a header given twice can be expressed.
      headers: [...Object.entries(sent), ...(o.extraHeaders ?? [])],
      body: o.recv?.body ?? signed.body,
      signBase: base,
      now: o.now ?? NOW,
      windowSeconds: WINDOW,
      seenNonces: o.seenNonces ?? [],
      expect: o.expect ?? 'ok',
      ...(o.expect ? {} : { expectKeyId: o.expectKeyId ?? o.kid ?? kidA }),
    });
  };
  const lower = (h) => h.map(([k, v]) => [k.toLowerCase(), v]);

  add('4.7 payment callback, POST, JSON body, Key-Id names the signing key', {});
  add('4.8 role query, GET with an empty body; the query string is not signed', {
    sign: { method: 'GET', path: '/game/role', body: '' },
    recv: { path: '/game/role?roleId=r-1&serverId=s1' },
  });
  add('non-ASCII body (CJK, emoji, escapes), pretty-printed with its own trailing newline', {
    sign: { body: unicode },
  });
  add('header names in lower case (HTTP names are case-insensitive)', { headers: undefined });
  callback.at(-1).headers = lower(callback.at(-1).headers);
  add('rotated key: signed by the new key, Key-Id picks it among two', { kid: kidB });
  add('no Key-Id and two keys: each is tried, the one that verifies is named', {
    kid: kidB,
    headers: { 'Key-Id': undefined },
  });
  add('no Key-Id and one key: that key', { headers: { 'Key-Id': undefined }, publicKeys: [kidA], expectKeyId: kidA });
  add('timestamp exactly at the edge of the window is accepted', { sign: { timestamp: String(NOW - WINDOW) } });
  add('body fields reordered before verification', {
    recv: { body: JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(payment)).reverse())) },
    expect: 'bad_signature',
  });
  add('body whitespace changed (re-serialised pretty)', {
    recv: { body: JSON.stringify(JSON.parse(payment), null, 2) },
    expect: 'bad_signature',
  });
  add('body with a trailing newline the platform did not send', {
    recv: { body: payment + '\n' },
    expect: 'bad_signature',
  });
  add('non-ASCII body re-encoded (\\u escapes instead of UTF-8)', {
    sign: { body: unicode },
    recv: { body: unicode.replace('勇者', '\\u52c7\\u8005') },
    expect: 'bad_signature',
  });
  add('path changed', { recv: { path: '/pay/callback2' }, expect: 'bad_signature' });
  add('method changed', { recv: { method: 'PUT' }, expect: 'bad_signature' });
  add('signed by the new key, Key-Id names the old one', {
    kid: kidB,
    headers: { 'Key-Id': kidA },
    expect: 'bad_signature',
  });
  add('Key-Id names no configured key', { headers: { 'Key-Id': 'kit-test-retired' }, expect: 'unknown_key' });
  add('only the old key configured, call signed by the new key (not yet configured)', {
    kid: kidB,
    publicKeys: [kidA],
    expect: 'unknown_key',
  });
  add('stale timestamp: one second past the window', {
    sign: { timestamp: String(NOW - WINDOW - 1) },
    expect: 'stale_timestamp',
  });
  add('timestamp too far in the future', { sign: { timestamp: String(NOW + WINDOW + 1) }, expect: 'stale_timestamp' });
  add('replayed nonce: the nonce store has seen it', {
    seenNonces: ['n-' + callback.length],
    expect: 'replayed_nonce',
  });
  add('Signature header missing', { headers: { Signature: undefined }, expect: 'missing_header' });
  add('Nonce header empty', { headers: { Nonce: '' }, expect: 'missing_header' });
  add('Timestamp header missing', { headers: { Timestamp: undefined }, expect: 'missing_header' });
  add('Timestamp not decimal digits', { headers: { Timestamp: '1.767e9' }, expect: 'malformed_header' });
  add('Signature not standard base64', { headers: { Signature: 'not*base64' }, expect: 'malformed_header' });
  add('Nonce given twice', { extraHeaders: [['nonce', 'other-nonce']], expect: 'malformed_header' });
  add('Nonce with a control character', { sign: { nonce: 'n-\u0001' }, expect: 'malformed_header' });
  add('Timestamp of 16 digits', { headers: { Timestamp: '1767225595000000' }, expect: 'malformed_header' });
  // Issue 32: the Nonce limit counts characters (UTF-16 code units, as the SDK, Java and C# count them), not bytes.
  add('Nonce of 200 "€" characters (600 UTF-8 bytes): within 256 characters, accepted', {
    sign: { nonce: '€'.repeat(200) },
  });
  add('Nonce of 129 emoji: 258 UTF-16 code units, past 256 characters', {
    sign: { nonce: '🐉'.repeat(129) },
    expect: 'malformed_header',
  });
  // Issue 32: `$` in Python and .NET matches before a final line feed; the whole value must be digits.
  add('Timestamp with a trailing line feed', {
    headers: { Timestamp: String(NOW - 5) + '\n' },
    expect: 'malformed_header',
  });
  add('Signature with a trailing line feed', { expect: 'malformed_header' });
  callback.at(-1).headers = callback.at(-1).headers.map(([k, v]) => [k, k === 'Signature' ? v + '\n' : v]);
  add('Signature valid base64 but of the wrong length for the key', {
    headers: { Signature: 'AAAA' },
    expect: 'bad_signature',
  });

  const md5Cases = [
    [
      '4.6 consumption notice: numbers as digits, top-level sign left out',
      'game-secret-001',
      {
        userId: '10001',
        roleId: 'r-77',
        serverId: 's1',
        productCode: 'gem_60',
        appId: 1234,
        nonce: 'a1b2c3d4e5',
        timestamp: 1700000000,
        sign: '0123456789abcdef0123456789abcdef',
      },
    ],
    [
      '4.1 report: nested objects and arrays of objects flatten to dot paths, empty string kept, null left out',
      'report-secret',
      {
        client_info: { client_id: 'cli-1', ip: '203.0.113.7', device_id: 'dev-9' },
        reporter: { svcid: '90001', role_id: 'r1', server_id: 's1' },
        reportee: { svcid: '90002', role_id: 'r2', server_id: 's1' },
        reasons: [{ id: 1 }, { id: 7, text: 'speed hack' }],
        evidence: [{ uri: 'oss://bucket/e/1.png', type: 'image' }],
        user_description: '',
        extras: null,
        nonce: 'n-4f1c',
        timestamp: '1700000000',
        sign: 'x',
      },
    ],
    [
      '4.2 upload URL as a nested object; int64 sent as a string',
      'report-secret',
      {
        client_info: { client_id: 'cli-1', ip: '203.0.113.7' },
        svcid: '90001',
        file_name: 'clip.mp4',
        file_size: '9007199254740993',
        nonce: 'q9',
        timestamp: '1700000000',
      },
    ],
    [
      '4.2 upload URL as flat query parameters with dotted names sign the same',
      'report-secret',
      {
        'client_info.client_id': 'cli-1',
        'client_info.ip': '203.0.113.7',
        svcid: '90001',
        file_name: 'clip.mp4',
        file_size: '9007199254740993',
        nonce: 'q9',
        timestamp: '1700000000',
        sign: 'ignored',
      },
    ],
    ['arrays of scalars and arrays of arrays: index paths', 's', { tags: ['a', 'b'], grid: [[1, 2], [3]], n: 0 }],
    [
      'empty object and array contribute nothing; null array element keeps the other indexes',
      'k',
      {
        a: {},
        b: [],
        c: 'x',
        d: [null, 'y'],
        e: { f: null },
        g: '',
      },
    ],
    [
      'a nested key named sign takes part; only the top-level sign is left out',
      'k',
      { payload: { n: 1, sign: 'inner' }, x: 1, sign: 'outer' },
    ],
    [
      'booleans and number forms (ECMAScript Number#toString)',
      'k',
      {
        on: true,
        off: false,
        zero: 0,
        negzero: -0,
        neg: -12,
        half: 1.5,
        temp: -273.15,
        huge: 1e21,
        big: 1e20,
        tiny: 0.000001,
        tinier: 1e-7,
        third: 1 / 3,
        max_safe: 9007199254740991,
        one: 1.0,
      },
    ],
    ['raw strings: no URL encoding, no trimming', 'k', { q: 'a b&c=d%20+', slash: '/a/b?c', pad: '  spaced  ' }],
    [
      'Unicode keys sort by code point (UTF-8 bytes), not UTF-16 units',
      '密钥🔑',
      {
        名字: '张三',
        '😀': 'smile',
        Ａ: 'fullwidth A',
        ключ: 'значение',
        game: '🎮🔥',
        Zeta: 'upper case sorts first',
        alpha: 'x',
      },
    ],
    [
      'deeply nested objects in arrays',
      'deep',
      { order: { items: [{ sku: 'a', opts: { color: 'red', sizes: ['S', 'M'] } }, { sku: 'b' }] } },
    ],
    ['nothing to sign: the canonical string is empty', 'only-secret', { sign: 'x' }],
    [
      'POST /order/v1/game/orders/{trxNo}/consumption (issue 27): consumption report body',
      'game-secret-001',
      {
        appId: 1234,
        trxNo: 9000000000041,
        consumptionPercentage: 35,
        nonce: 'c0ns-7f3a',
        timestamp: 1700000000,
        sign: '0123456789abcdef0123456789abcdef',
      },
    ],
  ];
  const md5 = md5Cases.map(([description, secret, params]) => ({
    description,
    params,
    secret,
    canonical: sdk.canonicalParams(params),
    sign: sdk.md5Sign(params, secret),
  }));

  // Issue 32: bodies as text, read by the kit's own JSON reader (the server reads them with parseJsonBody,
  // which keeps integers past 2^53 as their exact digits). `decimals` names top-level members whose JSON
  // string the kit turns into its decimal type (Python Decimal, Java BigDecimal, C# decimal) before signing:
  // a decimal signs as the JSON number it is sent as (0.10 as 0.1, 19.99 as 19.99), an integral one by its digits.
  const md5BodyCases = [
    [
      'integers past int64 and past 2^53 keep their exact digits',
      'k',
      '{"trxNo":123456789012345678901234567890,"neg":-99999999999999999999,"int64max":9223372036854775807,' +
        '"past53":9007199254740993,"appId":1,"nested":{"ids":[18446744073709551616,2]}}',
      [],
    ],
    [
      'decimal prices: 0.10, 19.99, 1.50, 12345678.90 and an integral decimal',
      'shop-secret',
      '{"productCode":"gem_60","price":"0.10","total":"19.99","tax":"1.50","big":"12345678.90","whole":"100",' +
        '"quantity":3,"nonce":"d3c1m4l","timestamp":1700000000}',
      ['price', 'total', 'tax', 'big', 'whole'],
    ],
  ];
  const md5Bodies = md5BodyCases.map(([description, secret, body, decimals]) => {
    const params = parseJsonBody(body);
    // Number(text) is the double the service reads from the JSON number `text`; an integral one keeps its digits.
    for (const k of decimals) params[k] = /^-?\d+$/.test(params[k]) ? params[k] : Number(params[k]);
    return {
      description,
      secret,
      body,
      decimals,
      canonical: sdk.canonicalParams(params),
      sign: sdk.md5Sign(params, secret),
    };
  });

  const macCases = [
    [
      '4.3 profile, GET with a query',
      {
        kid: 'at-7f3a9c1e5b',
        macKey: 'mk-2d8e4f6a0c',
        ts: '1700000000',
        nonce: '8fK2pQzX',
        method: 'GET',
        uri: '/api/account/v1/user/profile?clientId=1001',
        host: 'api.example.com',
        port: '443',
      },
    ],
    [
      'lower-case method is signed upper-case',
      {
        kid: 'at-1',
        macKey: 'mk-1',
        ts: '1700000001',
        nonce: 'abcde',
        method: 'post',
        uri: '/api/order/v1/supplement/list',
        host: 'api.example.com',
        port: '443',
      },
    ],
    [
      'UTF-8 mac key',
      {
        kid: 'at-2',
        macKey: '密钥🔑',
        ts: '1700000002',
        nonce: 'n0nce5',
        method: 'GET',
        uri: '/api/account/v1/user/profile',
        host: 'api.example.com',
        port: '443',
      },
    ],
    [
      'percent-encoded query signed as sent',
      {
        kid: 'at-3',
        macKey: 'mk-3',
        ts: '1700000003',
        nonce: 'zzzzz',
        method: 'GET',
        uri: '/api/x?path=%2Fa%2Fb&q=1',
        host: 'api.example.com',
        port: '443',
      },
    ],
    [
      'another port',
      {
        kid: 'at-4',
        macKey: 'mk-4',
        ts: '1700000004',
        nonce: 'qwerty',
        method: 'GET',
        uri: '/',
        host: 'localhost',
        port: '8443',
      },
    ],
    [
      'header values with a double quote and a backslash are escaped in the Authorization header',
      {
        kid: 'at-"5\\x',
        macKey: 'mk-5',
        ts: '1700000005',
        nonce: 'a"b\\c',
        method: 'POST',
        uri: '/api/order/v1/supplement/list?a=1',
        host: 'api.example.com',
        port: '443',
      },
    ],
  ];
  const mac = macCases.map(([description, i]) => ({
    description,
    ...i,
    signBase: sdk.macSignBase(i),
    mac: sdk.macSign(i, i.macKey),
    header: sdk.buildMacAuthorization({ ...i, ts: Number(i.ts) }),
  }));

  const out = {
    comment:
      'Generated by scripts/gen-kit-vectors.mjs from the service signing code; do not edit. ' +
      'The RSA keys are TEST KEYS, published on purpose: never use them for anything but tests.',
    keys,
    callback,
    md5,
    md5Bodies,
    mac,
    notifications: notificationCases(),
    preOrderChecks: preOrderCases(),
    answers: answerCases(sdk),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

/** Typed 2.4/2.5 bodies: `expect` is the parsed fields as text (null when absent). */
function notificationCases() {
  const f = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null ? null : String(v)]));
  const base = {
    notifyId: null,
    appId: null,
    userId: null,
    trxNo: null,
    originalTrxNo: null,
    trxType: null,
    kind: null,
    outTrxNo: null,
    channel: null,
    currency: null,
    totalAmount: null,
    clientAmount: null,
    productCount: null,
    'products.0.productCode': null,
    'products.0.quantity': null,
    'attach.gameRoleId': null,
  };
  return [
    {
      description: '2.4 payment as the service sends it',
      body: '{"notifyId":41,"notifyTime":1767225590000,"appId":1001,"userId":"u-77","trxNo":9000000000041,"trxType":0,"outTrxNo":"order-41","platform":2,"channel":2,"paymentType":0,"products":[{"productCode":"gem_60","quantity":1,"channelSkuCode":"com.game.gem60"}],"currency":"USD","region":"US","clientAmount":0.99,"clientCurrency":"USD","clientRegion":"US","totalAmount":0.99,"status":0,"successTime":1767225590000,"attach":{"gameServerId":"s1","gameRoleId":"r-1","gameExt":"x"},"bankTrxNo":"b-1"}',
      expect: f({
        ...base,
        notifyId: 41,
        appId: 1001,
        userId: 'u-77',
        trxNo: 9000000000041,
        trxType: 0,
        kind: 'payment',
        outTrxNo: 'order-41',
        channel: 2,
        currency: 'USD',
        totalAmount: '0.99',
        clientAmount: '0.99',
        productCount: 1,
        'products.0.productCode': 'gem_60',
        'products.0.quantity': 1,
        'attach.gameRoleId': 'r-1',
      }),
    },
    {
      description:
        '2.4 numbers spelled as strings, unknown channel and field, null outTrxNo and attach, several products',
      body: '{"notifyId":"42","notifyTime":"1767225590000","appId":"1001","userId":10001,"trxNo":"9223372036854775807","trxType":"0","outTrxNo":null,"platform":9,"channel":99,"paymentType":"3","products":[{"productCode":"a","quantity":"2","channelSkuCode":""},{"productCode":"b","quantity":1,"channelSkuCode":""}],"currency":"EUR","region":"DE","totalAmount":"12.50","status":0,"successTime":1767225590000,"attach":null,"newField":{"x":[1]}}',
      expect: f({
        ...base,
        notifyId: 42,
        appId: 1001,
        userId: '10001',
        trxNo: '9223372036854775807',
        trxType: 0,
        kind: 'payment',
        channel: 99,
        currency: 'EUR',
        totalAmount: '12.50',
        productCount: 2,
        'products.0.productCode': 'a',
        'products.0.quantity': 2,
      }),
    },
    {
      description: '2.5 refund, currency spelled as a number (the field table lists it so)',
      body: '{"notifyId":43,"appId":1001,"notifyTime":1767225590000,"userId":"u-77","trxNo":9000000000043,"originalTrxNo":9000000000041,"trxType":2,"platform":1,"channel":1,"paymentType":0,"products":[{"productCode":"gem_60","quantity":1,"channelSkuCode":"sku"}],"currency":840,"totalAmount":0.99,"status":0,"successTime":1767225599000,"attach":{"gameServerId":"s1","gameRoleId":"r-1","gameExt":""}}',
      expect: f({
        ...base,
        notifyId: 43,
        appId: 1001,
        userId: 'u-77',
        trxNo: 9000000000043,
        originalTrxNo: 9000000000041,
        trxType: 2,
        kind: 'refund',
        channel: 1,
        currency: '840',
        totalAmount: '0.99',
        productCount: 1,
        'products.0.productCode': 'gem_60',
        'products.0.quantity': 1,
        'attach.gameRoleId': 'r-1',
      }),
    },
    {
      description: 'unknown trxType (2.7 may grow): kept as its number, neither payment nor refund',
      body: '{"notifyId":44,"appId":1001,"notifyTime":1,"userId":"u","trxNo":5,"trxType":7,"platform":1,"channel":1,"paymentType":0,"products":[],"currency":"USD","totalAmount":1,"status":0,"successTime":1}',
      expect: f({
        ...base,
        notifyId: 44,
        appId: 1001,
        userId: 'u',
        trxNo: 5,
        trxType: 7,
        kind: 'unknown',
        channel: 1,
        currency: 'USD',
        totalAmount: '1',
        productCount: 0,
      }),
    },
  ];
}

/** 4.10 pre-order check request bodies, parsed. */
function preOrderCases() {
  return [
    {
      description: '4.10 request with quantity',
      body: '{"roleId":"r-1","serverId":"s1","productSkuCode":"gem_60","quantity":3,"extras":"e"}',
      expect: { roleId: 'r-1', serverId: 's1', productSkuCode: 'gem_60', quantity: '3', extras: 'e' },
    },
    {
      description: '4.10 request with numbers spelled the other way and no extras',
      body: '{"roleId":123,"serverId":"s1","productSkuCode":"gem_60","quantity":"2"}',
      expect: { roleId: '123', serverId: 's1', productSkuCode: 'gem_60', quantity: '2', extras: null },
    },
  ];
}

/** The game's answers (4.7-4.10) as the SDK builds them: `args` in, `{status, body}` out (compared as JSON values). */
function answerCases(sdk) {
  const full = {
    userId: 'u-77',
    roleId: 'r-1',
    name: '勇者',
    avatar: 'https://cdn.example/a.png',
    roleLv: 12,
    serverId: 's1',
    serverName: 'Server 1',
  };
  const bare = { userId: 'u-77', roleId: 'r-2', name: 'n', avatar: '' };
  const entry = { roleId: 'r-1', name: '勇者', avatar: 'a.png', roleLv: 12, serverId: 's1', serverName: 'Server 1' };
  const entryBare = { roleId: 'r-2', name: 'n', avatar: '', serverId: 's2' };
  const cases = [
    ['4.7 accept', 'acceptNotification', {}, sdk.acceptNotification()],
    [
      '4.7 reject, 500',
      'rejectNotification',
      { status: 500, msg: 'inventory service down' },
      sdk.rejectNotification('inventory service down'),
    ],
    [
      '4.7 reject, 409',
      'rejectNotification',
      { status: 409, msg: 'order unknown' },
      sdk.rejectNotification('order unknown', 409),
    ],
    ['4.8 role with every field', 'role', full, sdk.roleQueryAnswer(full)],
    ['4.8 role without the optional fields: null', 'role', bare, sdk.roleQueryAnswer(bare)],
    ['4.9 role list', 'roleList', { roles: [entry, entryBare] }, sdk.roleListAnswer([entry, entryBare])],
    ['4.9 no role: 401 with empty results', 'roleList', { roles: [] }, sdk.roleListAnswer([])],
    ['4.10 allow', 'preOrderAllow', {}, sdk.allowPreOrder()],
    [
      '4.10 block with a section 7 code, msg null (the front end translates)',
      'preOrderReject',
      { code: 105, detail: '5 per day' },
      sdk.blockPreOrder(105, { detail: '5 per day' }),
    ],
    [
      '4.10 block with a custom code and a player-facing msg',
      'preOrderReject',
      { code: 901, detail: 'event over', msg: 'Come back tomorrow' },
      sdk.blockPreOrder(901, { detail: 'event over', msg: 'Come back tomorrow' }),
    ],
  ];
  return cases.map(([description, kind, args, expect]) => ({ description, kind, args, expect }));
}
