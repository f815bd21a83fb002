import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { buildMacAuthorization, md5Sign, type SignableValue } from '@game-platform/sdk';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { parseJsonBody } from './json-body.js';
import { TEXT_PATTERN } from './schemas.js';
import { createDeveloper } from '../testing/portal/portal.js';
import { StripeFake } from '../testing/stripe-fake.js';
import { PaypalFake } from '../testing/paypal-fake.js';
import { AlipayFake, type AlipayAccount } from '../testing/alipay-fake.js';
import { WechatpayFake } from '../testing/wechatpay-fake.js';

/**
 * Hard to break, property-based: every public and admin route of the OpenAPI document, driven with requests
 * built from the route's own schema - valid in shape, with hostile leaves - and, on the signed routes, correctly
 * signed (md5 of 5.1, MAC of 5.2) so that the hostile values get past authentication into the domain and the
 * database. Properties: no 5xx; every refusal in its envelope (2.3, or rpcStatus under /svc/reporting/) with the
 * HTTP status its code names; a refusal writes nothing; NUL and unpaired surrogates are refused wherever a
 * request can carry a string (docs/errors.md, "Text").
 *
 * A failure prints the fast-check seed and path; replay with FC_SEED=<seed> FC_PATH=<path>. FC_RUNS sets the
 * number of random requests.
 */

type Schema = Record<string, any>;
type Auth =
  'admin' | 'portal' | 'mac' | 'md5-body' | 'md5-query' | 'stripe' | 'paypal' | 'alipay' | 'wechatpay' | 'none';
interface Param {
  name: string;
  in: 'query' | 'path';
  required: boolean;
  schema: Schema;
}
interface Route {
  method: string;
  path: string;
  body?: Schema;
  query: Param[];
  params: Param[];
  auth: Auth;
}

/** Where a hostile value goes, as raw wire text: a JSON fragment in the body, a percent-encoded query value or path segment. */
type Mutation =
  | { where: 'none' }
  | { where: 'body'; path: Array<string | number>; raw: string; duplicate?: boolean }
  | { where: 'key'; path: Array<string | number>; rawKey: string }
  | { where: 'query'; name: string; raw: string; repeat?: boolean }
  | { where: 'param'; name: string; raw: string };

interface Draft {
  route: Route;
  body: unknown;
  query: Array<[string, string]>;
  params: Record<string, string>;
  mutation: Mutation;
  unstorable: boolean;
}

const PLACEHOLDER = '\u0001hostile\u0001';
const FRESH_NONCE = 'fresh-nonce-placeholder';
const SIGN_PLACEHOLDER = 'feedfacefeedfacefeedfacefeedface';
/** Tables a refused request may write to by design: the admin audit trail (docs/operators.md), one-time nonces, the game-call log. */
// store_messages, provider_messages: a store or payment provider notification refused is recorded for operators
// (docs/stores.md, docs/web-payment.md).
const WRITTEN_ON_REFUSAL = new Set(['admin_actions', 'nonces', 'game_calls', 'store_messages', 'provider_messages']);
/** The main app's Stripe webhook signing secret: the walk signs what it sends to the Stripe webhook route. */
const STRIPE_WEBHOOK_SECRET = 'whsec_hostilewalk';

// --- hostile values -------------------------------------------------------------------------------------

/** Strings neither backend stores as sent, as JSON text: NUL, unpaired high and low surrogates, a reversed pair. */
const UNSTORABLE_JSON = ['"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"x\\udfff"', '"\\udc00\\ud800"', '"\\ud83d"'];
/** The same in a query value or path segment: %00, and the (invalid) UTF-8 of a lone surrogate. */
const UNSTORABLE_URL = ['%00', 'a%00b', '%ED%A0%80', '%ED%B0%80'];

// Any UTF-16 code unit or code point (fast-check's 'binary' unit would do, but builds a table of ~150 MB).
const codeUnit = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((c) => (c <= 0xffff ? String.fromCharCode(c) : String.fromCodePoint(c)));
/** Any code point but a surrogate: what percent-encoding can carry. */
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((c) => (c >= 0xd800 && c <= 0xdfff ? '\ufffd' : String.fromCodePoint(c)));

const hostileJson = fc.oneof(
  fc.constantFrom(...UNSTORABLE_JSON),
  // Valid but odd text: must never be refused as unstorable.
  fc.constantFrom(
    '"\\ud83d\\ude00"',
    '"\\uffff"',
    '""',
    '" "',
    '"\\u202e"',
    '"\\u0001"',
    JSON.stringify('x'.repeat(100_000)),
    JSON.stringify('😀'.repeat(50_000)),
  ),
  // Numbers at and past 2^53, infinities, negative zero, underflow, int64 limits.
  fc.constantFrom(
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '9007199254740993.0',
    '1e16',
    '1e308',
    '1e309',
    '-1e309',
    '-0',
    '0.5',
    '1e-400',
    '9223372036854775807',
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
  ),
  // Wrong types.
  fc.constantFrom('{}', '[]', 'null', 'true', 'false', '0', '[null]', '{"a":1}'),
  // Deep nesting, duplicate keys, prototype keys.
  fc.constantFrom(
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
    '{"a":1,"a":2}',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: codeUnit, maxLength: 8 }).map((s) => JSON.stringify(s)),
);
const hostileKey = fc.constantFrom(
  '"\\u0000"',
  '"\\ud800"',
  '"__proto__"',
  '"constructor"',
  '""',
  '"a.b"',
  JSON.stringify('k'.repeat(10_000)),
);
const hostileUrl = fc.oneof(
  fc.constantFrom(...UNSTORABLE_URL),
  fc.constantFrom(
    '%FF',
    '%C3',
    '%E0%A4%A',
    '%',
    '%ZZ',
    '%F0%9F%98%80',
    '%EF%BF%BF',
    '+',
    '%2B',
    '..%2F..',
    '%2F',
    '',
    '-0',
    '1e308',
    '9007199254740993',
    '99999999999999999999',
    'x'.repeat(6000),
    '%5B%5D',
    'a%26b%3Dc',
  ),
  fc.string({ unit: codePoint, maxLength: 8 }).map((s) => encodeURIComponent(s)),
);
/** Under the `u` flag a surrogate pair is one code point: this matches only an unpaired half. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Whether raw wire text carries NUL or an unpaired surrogate anywhere (a key or string of a JSON fragment, or a URL escape). */
function isUnstorable(raw: string, where: 'json' | 'url'): boolean {
  if (where === 'url') return /%00|%ED%[AB][0-9A-F]/i.test(raw);
  const bad = (v: unknown): boolean =>
    typeof v === 'string'
      ? v.includes('\0') || LONE_SURROGATE.test(v)
      : v !== null && typeof v === 'object'
        ? Object.entries(v).some(([k, x]) => bad(k) || bad(x))
        : false;
  try {
    return bad(JSON.parse(raw));
  } catch {
    return false;
  }
}

// --- the routes, from the service's own OpenAPI document -----------------------------------------------------

function routesOf(doc: any): Route[] {
  const deref = (s: Schema): Schema => (s?.$ref ? deref(doc.components.schemas[s.$ref.split('/').pop()]) : s);
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const params: Param[] = (op.parameters ?? []).map((p: any) => ({
        name: p.name,
        in: p.in,
        required: !!p.required,
        schema: deref(p.schema),
      }));
      const body = op.requestBody ? deref(op.requestBody.content['application/json'].schema) : undefined;
      const query = params.filter((p) => p.in === 'query');
      const security = JSON.stringify(op.security ?? []);
      const auth: Auth = path.startsWith('/admin/')
        ? 'admin'
        : path.startsWith('/notify/v1/providers/stripe/')
          ? 'stripe'
          : path.startsWith('/notify/v1/providers/paypal/')
            ? 'paypal'
            : path.startsWith('/notify/v1/providers/alipay/')
              ? 'alipay'
              : path.startsWith('/notify/v1/providers/wechatpay/')
                ? 'wechatpay'
                : security.includes('studioSession')
                  ? 'portal'
                  : security.includes('macToken')
                    ? 'mac'
                    : body?.required?.includes('sign')
                      ? 'md5-body'
                      : query.some((p) => p.name === 'sign')
                        ? 'md5-query'
                        : 'none';
      routes.push({
        method: method.toUpperCase(),
        path,
        ...(body ? { body } : {}),
        query,
        params: params.filter((p) => p.in === 'path'),
        auth,
      });
    }
  }
  return routes;
}

/** The first JSON type a schema (or its first typed branch) takes. */
function typeOf(s: Schema): string | undefined {
  return s.type ?? (s.anyOf ?? s.oneOf)?.map(typeOf).find(Boolean);
}

const coerce = (value: unknown, s: Schema) =>
  typeOf(s) === 'string' ? String(value) : typeOf(s) === 'integer' || typeOf(s) === 'number' ? Number(value) : value;

/** Valid keys of a map (the OpenAPI document shows a map's values, not its key pattern): store channels, server ids. */
const mapKeys = (name: string) => (name === 'channelSkus' ? ['1', '2'] : ['default', 's1']);

/**
 * Valid values from a schema. `known` gives values by field name that the domain knows (the test app's clientId,
 * a real order's trxNo), so that requests get past lookups into the writes.
 */
function valid(s: Schema, name: string, known: Record<string, unknown>): fc.Arbitrary<unknown> {
  if (name in known) return fc.constant(coerce(known[name], s));
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b: Schema) => valid(b, name, known)));
  switch (s.type) {
    case 'string': {
      if (s.format === 'date-time')
        return fc
          .date({ min: new Date('2030-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString());
      if (s.pattern && s.pattern !== TEXT_PATTERN) return fc.stringMatching(new RegExp(s.pattern, 'u'));
      const minLength = s.minLength ?? 0;
      return fc.string({
        unit: 'grapheme',
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxLength ?? 20, 20)),
      });
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? 0;
      return fc.integer({ min, max: Math.min(s.maximum ?? min + 1000, min + 1000) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      return fc.array(valid(s.items, name, known), {
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxItems ?? 2, 2)),
      });
    }
    default: {
      const props = Object.fromEntries(
        Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => [k, valid(v, k, known)]),
      );
      const record = fc.record(props, { requiredKeys: s.required ?? [] });
      const extra =
        typeof s.additionalProperties === 'object'
          ? fc.dictionary(fc.constantFrom(...mapKeys(name)), valid(s.additionalProperties, '', known), { maxKeys: 2 })
          : fc.constant({});
      return fc
        .tuple(extra, record)
        .map(([e, r]) => ({ ...e, ...r }))
        .filter((o) => Object.keys(o).length >= (s.minProperties ?? 0));
    }
  }
}

/** One valid value with every optional field present: the full set of leaves a request can carry. */
function full(s: Schema, name: string, known: Record<string, unknown>): unknown {
  if (name in known) return coerce(known[name], s);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return full(branches.find((b: Schema) => b.type !== 'null') ?? branches[0], name, known);
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return '2035-01-01T00:00:00.000Z';
      if (s.pattern && s.pattern !== TEXT_PATTERN)
        return fc.sample(fc.stringMatching(new RegExp(s.pattern, 'u')), { seed: 1, numRuns: 1 })[0];
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [full(s.items, name, known)];
    default: {
      const o: Record<string, unknown> = Object.fromEntries(
        Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => [k, full(v, k, known)]),
      );
      if (typeof s.additionalProperties === 'object') o[mapKeys(name)[0]!] = full(s.additionalProperties, '', known);
      return o;
    }
  }
}

/** Every node of a JSON value with its path, the root included. */
function nodes(
  value: unknown,
  path: Array<string | number> = [],
  out: Array<{ path: Array<string | number>; value: unknown }> = [],
) {
  out.push({ path, value });
  if (Array.isArray(value)) value.forEach((v, i) => nodes(v, [...path, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) nodes(v, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

const getAt = (root: unknown, path: Array<string | number>): unknown => path.reduce((v: any, k) => v?.[k], root);

/** Decodes a query value as the service's parser does for valid escapes (what the client signed). */
function decodeQueryValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

describe('hostile input on every route', () => {
  let svc: TestService;
  let game: GameServer;
  /** The fake PayPal serving the signing certificate the walk signs the PayPal webhook's bodies with. */
  let paypal: PaypalFake;
  let paypalWebhookId: string;
  /** The main app's Alipay app: the walk signs what it sends to the Alipay notify route with its Alipay key. */
  let alipayAccount: AlipayAccount;
  /** Keys of a WeChat Pay merchant and platform (no server: the walk only signs with them). */
  const wechat = new WechatpayFake();
  let routes: Route[];
  let tables: string[];
  let main: { appId: number; clientId: string; secret: string };
  let deviceId: string;
  /** Known values by field name: for the game-facing routes (the main app and its player) and for the admin routes (a victim app, user and order). */
  let publicKnown: Record<string, unknown>;
  let adminKnown: Record<string, unknown>;
  let developerId: number;

  before(async () => {
    paypal = await PaypalFake.start();
    svc = await startTestService(
      {
        ...paypal.env,
        SANDBOX_LOGIN: 'true',
        SANDBOX_PAYMENTS: 'true',
        REPORT_EXTRAS_MAX_CHARS: '100000',
        REPORT_DESCRIPTION_MAX_CHARS: '100000',
        REPORT_DAILY_CAP_PER_REPORTER: '1000000',
        REPORT_OPEN_CAP_PER_REPORTEE: '1000000',
      },
      { dispatcher: false },
    );
    let userId = '';
    // The game answers the role query (4.8) with the test player as owner and allows every order (4.10).
    game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
      if (req.url.startsWith('/role'))
        return {
          status: 200,
          body: JSON.stringify({
            userId,
            roleId: new URL(req.url, 'http://x').searchParams.get('roleId'),
            name: 'n',
            avatar: 'a',
          }),
        };
      return { status: 200, body: '' };
    });
    const urls = {
      callbackUrls: { default: `${game.url}/cb` },
      roleQueryUrl: `${game.url}/role`,
      preOrderCheckUrl: `${game.url}/pre-order`,
      partnerUrl: `${game.url}/partner`,
    };
    const product = {
      productCode: 'gems_100',
      name: '100 gems',
      price: 6.99,
      currency: 'USD',
      channelSkus: { 1: 'com.game.gems100', 2: 'gems_100_android' },
    };
    main = await svc.createApp({ ...urls, allowedIps: ['127.0.0.1'] });
    const victim = await svc.createApp(urls);
    // The Stripe webhook route verifies with the main app's secret: the walk's bodies are signed with it, so their
    // hostile values reach what comes after the signature check.
    const stripe = await svc.admin('PUT', `/apps/${main.appId}/payment-providers/stripe`, {
      secrets: { secretKey: 'sk_test_hostilewalk', webhookSecret: STRIPE_WEBHOOK_SECRET },
    });
    assert.equal(stripe.status, 200, JSON.stringify(stripe.body));
    // So is the PayPal webhook route (PayPal's transmission signature, the fake's certificate).
    const paypalKeys = paypal.account(`${svc.url}/notify/v1/providers/paypal/${main.appId}`);
    paypalWebhookId = paypalKeys.webhookId;
    // And the WeChat Pay notify route (Wechatpay-Signature with the platform key of a merchant the walk made).
    const wechatSet = await svc.admin(
      'PUT',
      `/apps/${main.appId}/payment-providers/wechatpay`,
      wechat.settingsOf(wechat.merchant()),
    );
    assert.equal(wechatSet.status, 200, JSON.stringify(wechatSet.body));
    const paypalSet = await svc.admin('PUT', `/apps/${main.appId}/payment-providers/paypal`, {
      config: { clientId: paypalKeys.clientId, webhookId: paypalKeys.webhookId },
      secrets: { clientSecret: paypalKeys.clientSecret },
    });
    assert.equal(paypalSet.status, 200, JSON.stringify(paypalSet.body));
    // And the Alipay notify route (RSA2 with the app's Alipay key, which the fake makes without serving anything).
    alipayAccount = new AlipayFake().account();
    const alipaySet = await svc.admin('PUT', `/apps/${main.appId}/payment-providers/alipay`, {
      config: { appId: alipayAccount.appId, alipayPublicKey: alipayAccount.alipayPublicKey },
      secrets: { privateKey: alipayAccount.privateKey },
    });
    assert.equal(alipaySet.status, 200, JSON.stringify(alipaySet.body));
    for (const app of [main, victim])
      assert.equal((await svc.admin('POST', `/apps/${app.appId}/products`, product)).status, 201);
    deviceId = crypto.randomUUID();
    userId = (await login(main.clientId)).userId;
    const victimUser = (await login(victim.clientId, crypto.randomUUID())).userId;
    const order = await svc.admin('POST', '/sandbox/orders', {
      appId: victim.appId,
      userId: victimUser,
      products: [{ productCode: 'gems_100', quantity: 1 }],
      game_server_id: 's1',
      game_role_id: 'r1',
      platform: 1,
      channel: 1,
      paymentType: 0,
    });
    assert.equal(order.status, 201, JSON.stringify(order.body));
    const report = signMd5(
      {
        client_info: { client_id: main.clientId },
        reporter: { svcid: userId },
        reportee: { svcid: victimUser },
        reasons: [{ id: 1 }],
      },
      main.secret,
    );
    const reported = await svc.fetch('/svc/reporting/open/v1/player/report', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
    });
    assert.equal(reported.status, 200, await reported.text());
    const reportId = (await svc.admin('GET', '/reports')).body.reports[0].reportId;
    const event = await svc.admin('POST', `/apps/${victim.appId}/test-events`, { type: 'payment' });
    const kid = (await svc.admin('GET', '/platform-keys')).body.keys[0].kid;
    // The portal routes run as a studio developer of the victim app (portal/).
    developerId = (await svc.services.studioDevelopers.people.repo.byName(
      'studio',
      (await createDeveloper(svc, 'hostile-dev', [victim.appId])).name,
    ))!.person_id;
    const now = Math.floor(Date.now() / 1000);
    publicKnown = {
      clientId: main.clientId,
      client_id: main.clientId,
      'client_info.client_id': main.clientId,
      appId: main.appId,
      userId,
      productCode: 'gems_100',
      nonce: FRESH_NONCE,
      timestamp: now,
      sign: SIGN_PLACEHOLDER,
    };
    adminKnown = {
      appId: victim.appId,
      userId: victimUser,
      trxNo: order.body.order.trxNo,
      reportId,
      eventId: event.body.eventId,
      kid,
      productCode: 'gems_100',
    };

    const doc = await (await svc.fetch('/openapi.json')).json();
    routes = routesOf(doc).filter((r) => !['/healthz', '/readyz'].includes(r.path));
    assert.ok(routes.length > 50, `only ${routes.length} routes documented`);
    assert.deepEqual(
      routes
        .filter((r) => r.auth.startsWith('md5'))
        .map((r) => r.path)
        .sort(),
      [
        '/api/notify/v1/events',
        '/order/v1/game/orders/{trxNo}/consumption',
        '/order/v1/game/pay/notify',
        '/svc/reporting/open/v1/player/report',
        '/svc/reporting/open/v1/upload/oss_sign_url',
      ],
    );
    // PostgreSQL: this file's own schema (other test files' schemas share the database).
    const { database } = svc.services;
    const schema =
      database.dialect.name === 'postgres'
        ? (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]!.s
        : undefined;
    tables = (await database.db.introspection.getTables())
      .filter((t) => t.schema === schema && !WRITTEN_ON_REFUSAL.has(t.name))
      .map((t) => t.name);
    assert.ok(
      tables.includes('reports') && tables.includes('consumption_notices') && tables.includes('orders'),
      tables.join(),
    );
  });
  after(async () => {
    await svc?.close();
    await game?.close();
    await paypal?.close();
  });

  /** A guest login of the test player (a fresh MAC token each time: a hostile logout must not end the run). */
  async function login(clientId: string, device = deviceId): Promise<{ kid: string; macKey: string; userId: string }> {
    const res = await svc.fetch('/api/account/v1/client/login/guest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, deviceId: device }),
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.data;
  }

  /** Row counts of every table, in one statement. */
  async function counts(): Promise<Record<string, number>> {
    const { rows } = await sql<
      Record<string, unknown>
    >`select ${sql.join(tables.map((t) => sql`(select count(*) from ${sql.table(t)}) as ${sql.id(t)}`))}`.execute(
      svc.services.database.db,
    );
    return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
  }

  const knownFor = (route: Route) => (route.auth === 'admin' || route.auth === 'portal' ? adminKnown : publicKnown);

  /** A fresh portal session of the victim app's developer (a hostile DELETE /portal/v1/session may end one). */
  async function portalHeaders(): Promise<Record<string, string>> {
    const cookie = crypto.randomBytes(32).toString('base64url');
    const csrf = crypto.randomBytes(32).toString('base64url');
    await svc.services.studioDevelopers.people.repo.insertSession({
      session_hash: crypto.createHash('sha256').update(cookie).digest('hex'),
      person_id: developerId,
      csrf_token: csrf,
      ip: '127.0.0.1',
      created_at: Date.now(),
      expires_at: Date.now() + 3_600_000,
    });
    return { cookie: `gp_studio_session=${cookie}`, 'x-csrf-token': csrf };
  }

  /** The request of a draft on the wire: hostile text spliced in, nonce made fresh, then signed as the route wants. */
  async function prepare(d: Draft): Promise<{ uri: string; init: RequestInit; what: string }> {
    const { route, mutation: m } = d;
    const nonce = crypto.randomBytes(12).toString('base64url');
    let text: string | undefined;
    if (route.body && route.method !== 'GET') {
      if (m.where === 'body') {
        text = JSON.stringify(setAt(d.body, m.path, PLACEHOLDER));
        const key = m.path[m.path.length - 1];
        const splice =
          m.duplicate && typeof key === 'string'
            ? `${JSON.stringify(getAt(d.body, m.path))},${JSON.stringify(key)}:${m.raw}`
            : m.raw;
        text = text.replace(JSON.stringify(PLACEHOLDER), () => splice);
      } else if (m.where === 'key') {
        text = JSON.stringify(setAt(d.body, [...m.path, PLACEHOLDER], 1)).replace(
          `${JSON.stringify(PLACEHOLDER)}:1`,
          () => `${m.rawKey}:"v"`,
        );
      } else {
        text = JSON.stringify(d.body);
      }
      text = text.replace(JSON.stringify(FRESH_NONCE), JSON.stringify(nonce));
      if (route.auth === 'md5-body') {
        try {
          const { sign: _, ...params } = parseJsonBody(text) as Record<string, SignableValue>;
          text = text.replace(JSON.stringify(SIGN_PLACEHOLDER), JSON.stringify(md5Sign(params, main.secret)));
        } catch {
          /* not signable (not JSON, too deep): sent as is, and refused before the signature */
        }
      }
    }
    let pairs = d.query.map(([k, v]): [string, string] => [
      encodeURIComponent(k),
      v === FRESH_NONCE ? nonce : encodeURIComponent(v),
    ]);
    if (m.where === 'query') {
      const i = pairs.findIndex(([k]) => k === encodeURIComponent(m.name));
      pairs = m.repeat
        ? [...pairs, [pairs[i]![0], m.raw]]
        : pairs.map((p, j): [string, string] => (j === i ? [p[0], m.raw] : p));
    }
    if (route.auth === 'md5-query') {
      const params: Record<string, string | string[]> = {};
      for (const [k, v] of pairs) {
        const key = decodeQueryValue(k);
        if (key === 'sign') continue;
        const value = decodeQueryValue(v);
        params[key] = key in params ? [params[key]!, value].flat() : value;
      }
      const sign = md5Sign(params, main.secret);
      pairs = pairs.map(([k, v]): [string, string] => [k, v === SIGN_PLACEHOLDER ? sign : v]);
    }
    const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      m.where === 'param' && m.name === name ? m.raw : encodeURIComponent(d.params[name]!),
    );
    const uri = `${path}${pairs.length > 0 ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`;
    const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
    if (route.auth === 'admin') headers.authorization = `Bearer ${svc.adminToken}`;
    if (route.auth === 'stripe' && text !== undefined)
      headers['stripe-signature'] = StripeFake.sign(text, STRIPE_WEBHOOK_SECRET);
    if (route.auth === 'paypal' && text !== undefined)
      Object.assign(headers, paypal.sign(text, { webhookId: paypalWebhookId }));
    if (route.auth === 'alipay' && text !== undefined) text = signAlipay(text, alipayAccount);
    if (route.auth === 'wechatpay' && text !== undefined) Object.assign(headers, wechat.sign(text));
    if (route.auth === 'portal') Object.assign(headers, await portalHeaders());
    if (route.auth === 'mac') {
      const token = await login(main.clientId);
      headers.authorization = buildMacAuthorization({
        kid: token.kid,
        macKey: token.macKey,
        method: route.method as 'GET' | 'POST',
        uri,
        host: '127.0.0.1',
        port: 443,
      });
    }
    return {
      uri,
      init: { method: route.method, headers, ...(text === undefined ? {} : { body: text }) },
      what: `${route.method} ${shown(uri)} ${shown(text)}`,
    };
  }

  const shown = (s: string | undefined) =>
    s === undefined ? '' : s.length > 300 ? `${s.slice(0, 300)}...(${s.length} chars)` : s;

  /** Sends a draft (row counts taken just before, after any login) and checks the answer. */
  async function run(d: Draft): Promise<{ status: number; text: string; what: string }> {
    const { uri, init, what } = await prepare(d);
    const before = await counts();
    const res = await svc.fetch(uri, init);
    const text = await res.text();
    const answer = { status: res.status, text, what: `${what} -> ${res.status} ${shown(text)}` };
    await check(d, answer, before);
    return answer;
  }

  /** The properties every answer must have; `before` is the row counts before the request. */
  async function check(
    d: Draft,
    res: { status: number; text: string; what: string },
    before: Record<string, number>,
  ): Promise<void> {
    assert.ok(res.status < 500, `5xx: ${res.what}`);
    if (d.unstorable) assert.equal(res.status, 400, `NUL or an unpaired surrogate was not refused: ${res.what}`);
    if (res.status < 400) return;
    // Alipay reads the answer's text: its refusals are `fail` (docs/web-payment.md, "Alipay"), still writing nothing.
    if (d.route.auth === 'alipay' && res.text === 'fail') {
      assert.deepEqual(await counts(), before, `a refusal wrote: ${res.what}`);
      return;
    }
    let body: any;
    assert.doesNotThrow(() => {
      body = JSON.parse(res.text);
    }, `not JSON: ${res.what}`);
    if (d.route.path.startsWith('/svc/reporting/')) {
      const info = body.details?.[0];
      assert.ok(
        Number.isInteger(body.code) &&
          typeof body.message === 'string' &&
          info?.['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
        `not an rpcStatus: ${res.what}`,
      );
      assert.equal(
        String(info.metadata.code).slice(0, 3),
        String(res.status),
        `HTTP status is not the code's: ${res.what}`,
      );
      if (d.unstorable) assert.equal(info.reason, 'INVALID_PARAMETER', res.what);
    } else if (d.route.path.startsWith('/notify/v1/providers/wechatpay/') && body.code === 'FAIL') {
      // A notification WeChat Pay's adapter refused: WeChat Pay's failure body (docs/web-payment.md, "WeChat Pay").
      assert.ok(
        (res.status === 400 || res.status === 409) && typeof body.message === 'string' && body.outcome === 'refused',
        `not WeChat Pay's failure answer: ${res.what}`,
      );
      assert.ok(!d.unstorable, res.what);
    } else {
      assert.ok(
        Number.isInteger(body.code) &&
          typeof body.msg === 'string' &&
          typeof body.detail === 'string' &&
          'data' in body,
        `not the 2.3 envelope: ${res.what}`,
      );
      assert.equal(String(body.code).slice(0, 3), String(res.status), `HTTP status is not the code's: ${res.what}`);
      if (d.unstorable) assert.equal(body.code, 40000, res.what);
    }
    if (!d.unstorable)
      assert.doesNotMatch(body.detail ?? body.message, /surrogate/, `valid text refused as unstorable: ${res.what}`);
    assert.deepEqual(await counts(), before, `a refusal wrote: ${res.what}`);
  }

  /** Every hostile position of a valid request: body nodes (replaced, or duplicated under their key), object keys, query values, path segments. */
  function positions(d: Omit<Draft, 'mutation' | 'unstorable'>) {
    const body = d.route.body && d.route.method !== 'GET' ? nodes(d.body) : [];
    return [
      ...body.map((n) => ({ where: 'body' as const, path: n.path })),
      ...body
        .filter((n) => n.value !== null && typeof n.value === 'object' && !Array.isArray(n.value))
        .map((n) => ({ where: 'key' as const, path: n.path })),
      ...d.query.map(([name]) => ({ where: 'query' as const, name })),
      ...d.route.params.map((p) => ({ where: 'param' as const, name: p.name })),
    ];
  }

  function draft(
    route: Route,
    base: { body: unknown; query: Array<[string, string]>; params: Record<string, string> },
    mutation: Mutation,
  ): Draft {
    const raw = mutation.where === 'key' ? mutation.rawKey : mutation.where === 'none' ? '' : mutation.raw;
    const d: Draft = {
      route,
      ...base,
      mutation,
      unstorable:
        mutation.where !== 'none' &&
        isUnstorable(raw, mutation.where === 'body' || mutation.where === 'key' ? 'json' : 'url'),
    };
    return Object.defineProperty(d, fc.toStringMethod, {
      value: () => `${route.method} ${route.path} ${JSON.stringify({ ...base, mutation }).slice(0, 1000)}`,
    });
  }

  /** A valid request of a route with every optional field present. */
  function fullBase(route: Route) {
    const known = knownFor(route);
    return {
      body: route.body ? full(route.body, '', known) : undefined,
      query: route.query.map((p): [string, string] => [p.name, String(full(p.schema, p.name, known))]),
      params: Object.fromEntries(route.params.map((p) => [p.name, String(full(p.schema, p.name, known))])),
    };
  }

  it('declares a bound on every string and number a request can carry (OpenAPI)', () => {
    const loose: string[] = [];
    // A pattern of its own must refuse every one of its valid values with NUL or a lone surrogate spliced in.
    const admitsUnstorable = (pattern: string) => {
      const re = new RegExp(pattern, 'u');
      return fc
        .sample(fc.stringMatching(re), { seed: 1, numRuns: 20 })
        .some((v) =>
          ['\0', '\ud800', '\udc00'].some((bad) =>
            [0, v.length >> 1, v.length].some((i) => re.test(v.slice(0, i) + bad + v.slice(i))),
          ),
        );
    };
    const walk = (s: Schema, where: string) => {
      for (const b of s.anyOf ?? s.oneOf ?? []) walk(b, where);
      if (s.enum || 'const' in s) return;
      if (
        s.type === 'string' &&
        !s.format &&
        s.pattern !== TEXT_PATTERN &&
        (s.pattern === undefined || admitsUnstorable(s.pattern))
      )
        loose.push(`${where}: ${JSON.stringify(s)}`);
      if (
        (s.type === 'integer' || s.type === 'number') &&
        !(s.minimum >= -Number.MAX_SAFE_INTEGER && s.maximum <= Number.MAX_SAFE_INTEGER)
      )
        loose.push(`${where}: ${JSON.stringify(s)}`);
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) walk(v, `${where}.${k}`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}.*`);
      if (s.items) walk(s.items, `${where}[]`);
    };
    for (const r of routes) {
      if (r.body) walk(r.body, `${r.method} ${r.path} body`);
      for (const p of [...r.query, ...r.params]) walk(p.schema, `${r.method} ${r.path} ${p.in} ${p.name}`);
    }
    assert.deepEqual(
      loose,
      [],
      'every request string needs TEXT_PATTERN (Text of http/schemas.ts) or a pattern of its own that admits neither NUL nor a lone surrogate; every number SafeInteger/SafeNumber bounds',
    );
  });

  it('refuses NUL and unpaired surrogates spliced into every string of every route, or added as a key of every object, with 400 INVALID_PARAMETER naming it, writing nothing', async (t) => {
    let sent = 0;
    const splice = (v: string, bad: string) => v.slice(0, v.length >> 1) + bad + v.slice(v.length >> 1);
    for (const route of routes) {
      const base = fullBase(route);
      for (const pos of positions({ route, ...base })) {
        let mutations: Mutation[];
        if (pos.where === 'body') {
          const v = getAt(base.body, pos.path);
          if (typeof v !== 'string') continue;
          mutations = ['\0', '\ud800', '\udfff'].map((bad) => ({ ...pos, raw: JSON.stringify(splice(v, bad)) }));
        } else if (pos.where === 'key') {
          mutations = [
            { ...pos, rawKey: '"a\\u0000"' },
            { ...pos, rawKey: '"\\udc00"' },
          ];
        } else {
          const v = pos.where === 'query' ? base.query.find(([k]) => k === pos.name)![1] : base.params[pos.name]!;
          mutations = ['%00', '%ED%A0%80', '%ED%B0%80'].map((bad) => ({
            ...pos,
            raw: splice(encodeURIComponent(v), bad),
          }));
        }
        for (const m of mutations) {
          const d = draft(route, base, m);
          assert.ok(d.unstorable, JSON.stringify(m));
          const res = await run(d);
          // Refused for what was spliced in, not for something else of the request.
          const body = JSON.parse(res.text);
          const detail: string = body.detail ?? body.message;
          const field =
            m.where === 'body'
              ? m.path.join('.')
              : m.where === 'key'
                ? [...m.path, JSON.parse(m.rawKey)].join('.')
                : m.where === 'none'
                  ? ''
                  : m.name;
          assert.ok(
            detail.startsWith(`${field}:`) || /percent-encoding/.test(detail),
            `refused for another reason than ${JSON.stringify(field)}: ${res.what}`,
          );
          sent++;
        }
      }
    }
    t.diagnostic(`${sent} requests`);
    assert.ok(sent > 300, `only ${sent} requests`);
  });

  it('keeps valid text exact: astral characters, U+FFFF and near-misses of a surrogate are stored and answered as sent, and never collide', async () => {
    const tricky = [
      '😀',
      'a\uffffb',
      '\ud83d\ude00\ud83d\ude00',
      '𝄞 clef',
      '\u00e9',
      'e\u0301',
      '\ufffd',
      'tab\there',
      '\u0001',
    ];
    for (const [i, text] of tricky.entries()) {
      const body = signMd5(
        {
          client_info: { client_id: main.clientId },
          reporter: { svcid: `exact-${i}` },
          reportee: { role_id: text, server_code: 's' },
          reasons: [{ id: 5, extras: text }],
          user_description: text,
        },
        main.secret,
      );
      const res = await svc.fetch('/svc/reporting/open/v1/player/report', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, await res.text());
      const listed = (await svc.admin('GET', `/reports?reporter=exact-${i}`)).body.reports;
      assert.equal(listed.length, 1);
      assert.deepEqual(
        [listed[0].reportee.role_id, listed[0].reasons[0].extras, listed[0].user_description],
        [text, text, text],
      );
    }
    // 4.6 decides "already stored" by the stored strings: notices that differ only in such text are each new.
    const timestamp = Math.floor(Date.now() / 1000);
    for (const roleId of tricky) {
      const notice = signMd5(
        { userId: 'u-exact', roleId, serverId: 's', productCode: 'gems_100', appId: main.appId },
        main.secret,
        { timestamp },
      );
      const res = await svc.fetch('/order/v1/game/pay/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(notice),
      });
      assert.deepEqual(
        [res.status, ((await res.json()) as any).detail],
        [200, 'notice stored'],
        JSON.stringify(roleId),
      );
    }
  });

  it('takes a number exactly or refuses it: past 2^53 only an int64 field takes an integer, as its digits', async () => {
    const route = (path: string) => routes.find((r) => r.path === path)!;
    const now = Math.floor(Date.now() / 1000);
    const report = {
      client_info: { client_id: main.clientId },
      reporter: { svcid: 'numbers' },
      reportee: { svcid: 'numbers-2' },
      reasons: [{ id: 1 }],
      nonce: FRESH_NONCE,
      timestamp: String(now),
      sign: SIGN_PLACEHOLDER,
    };
    for (const [raw, status] of [
      ['9007199254740993', 200],
      ['-9223372036854775808', 200],
      ['9223372036854775808', 400],
      ['1e20', 400],
      ['9007199254740993.0', 400],
      ['1e309', 400],
    ] as const) {
      const res = await run(
        draft(
          route('/svc/reporting/open/v1/player/report'),
          { body: setAt(report, ['reasons', 0, 'id'], PLACEHOLDER), query: [], params: {} },
          { where: 'body', path: ['reasons', 0, 'id'], raw },
        ),
      );
      assert.equal(res.status, status, res.what);
    }
    const ids = (await svc.admin('GET', '/reports?reporter=numbers')).body.reports
      .flatMap((r: any) => r.reasons.map((x: any) => x.id))
      .sort();
    assert.deepEqual(ids, ['-9223372036854775808', '9007199254740993'], 'int64 ids kept to the last digit');
    const notice = {
      userId: 'numbers',
      roleId: 'r',
      serverId: 's',
      productCode: 'gems_100',
      appId: main.appId,
      nonce: FRESH_NONCE,
      timestamp: now,
      sign: SIGN_PLACEHOLDER,
    };
    for (const [field, raw] of [
      ['appId', '9007199254740993'],
      ['appId', '1e308'],
      ['timestamp', '1e309'],
      ['timestamp', '9007199254740992'],
    ] as const) {
      const res = await run(
        draft(
          route('/order/v1/game/pay/notify'),
          { body: notice, query: [], params: {} },
          { where: 'body', path: [field], raw },
        ),
      );
      assert.equal(res.status, 400, res.what);
      assert.match(JSON.parse(res.text).detail, new RegExp(`^${field}: `), res.what);
    }
  });

  it('refuses a query string that is not valid percent-encoded UTF-8, on every route that reads one, in the envelope', async () => {
    for (const route of routes.filter((r) => r.query.length > 0)) {
      for (const raw of ['%FF', '%C3', '%C3%28', '%E0%A4%A']) {
        const res = await run(draft(route, fullBase(route), { where: 'query', name: route.query[0]!.name, raw }));
        assert.equal(res.status, 400, res.what);
        assert.match(res.text, /percent-encoding/, res.what);
      }
    }
  });

  it('never answers 5xx, answers refusals in the envelope and writes nothing for them (fast-check, signed where the route is)', async (t) => {
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : crypto.randomInt(2 ** 31);
    const numRuns = Number(process.env.FC_RUNS ?? 700);
    t.diagnostic(`fast-check seed ${seed} (replay: FC_SEED=${seed}, with FC_PATH=<path> for one case)`);
    const request = fc.constantFrom(...routes).chain((route) => {
      const known = knownFor(route);
      // Optional query parameters come and go; required ones and those the domain knows (clientId, sign) are always sent.
      const pair = (p: Param) =>
        valid(p.schema, p.name, known).map((v): Array<[string, string]> => [[p.name, String(v)]]);
      const query = fc
        .tuple(...route.query.map((p) => (p.required || p.name in known ? pair(p) : fc.option(pair(p), { nil: [] }))))
        .map((qs) => qs.flat());
      const params = fc.record(
        Object.fromEntries(route.params.map((p) => [p.name, valid(p.schema, p.name, known).map(String)])),
      );
      const body = route.body ? valid(route.body, '', known) : fc.constant(undefined);
      return fc.record({ body, query, params }).chain((base) => {
        const where = positions({ route, ...base });
        const mutation: fc.Arbitrary<Mutation> = fc.oneof(
          { weight: 1, arbitrary: fc.constant({ where: 'none' as const }) },
          ...(where.length === 0
            ? []
            : [
                {
                  weight: 9,
                  arbitrary: fc.constantFrom(...where).chain((pos): fc.Arbitrary<Mutation> => {
                    if (pos.where === 'body')
                      return fc.record({ raw: hostileJson, duplicate: fc.boolean() }).map((r) => ({ ...pos, ...r }));
                    if (pos.where === 'key') return hostileKey.map((rawKey) => ({ ...pos, rawKey }));
                    if (pos.where === 'query')
                      return fc.record({ raw: hostileUrl, repeat: fc.boolean() }).map((r) => ({ ...pos, ...r }));
                    // A path segment past 200 characters is refused by the router before anything else: 300 is long enough.
                    return hostileUrl.map((raw) => ({ ...pos, raw: raw.slice(0, 300) }));
                  }),
                },
              ]),
        );
        return mutation.map((m) => draft(route, base, m));
      });
    });
    await fc.assert(
      fc.asyncProperty(request, async (d) => {
        await run(d);
      }),
      {
        seed,
        numRuns,
        ...(process.env.FC_PATH ? { path: process.env.FC_PATH, endOnFailure: true } : {}),
      },
    );
  });
});

/**
 * A JSON body for the Alipay notify route signed as Alipay signs a notify (RSA2 over the other parameters sorted, as
 * the SDK checks them: values not strings as their JSON), the sign put first; a body that does not parse is sent as is.
 */
function signAlipay(text: string, account: AlipayAccount): string {
  let parsed: unknown;
  try {
    parsed = parseJsonBody(text);
  } catch {
    return text;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return text;
  const { sign: _s, sign_type: _t, ...params } = parsed as Record<string, unknown>;
  let content: string;
  try {
    content = Object.keys(params)
      .filter((k) => k)
      .sort()
      .map((k) => `${k}=${typeof params[k] === 'string' ? params[k] : JSON.stringify(params[k])}`)
      .join('&');
  } catch {
    return text; // Nested too deep to sign: refused before the signature.
  }
  const sign = crypto.sign('sha256', Buffer.from(content, 'utf8'), account.alipayPrivateKey).toString('base64');
  if (text.includes(JSON.stringify(SIGN_PLACEHOLDER)))
    return text.replace(JSON.stringify(SIGN_PLACEHOLDER), () => JSON.stringify(sign));
  if ('sign' in (parsed as object)) return text;
  const rest = text.trimStart().slice(1);
  return `{"sign":${JSON.stringify(sign)}${rest.trimStart().startsWith('}') ? '' : ','}${rest}`;
}
