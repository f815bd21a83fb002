/**
 * Test-only: a small real node:http fake of the platform's game-server-facing
 * endpoints. It checks every md5 (5.1) and MAC (5.2) signature with the SDK's own
 * verifiers, refuses reused nonces, logs each request, and can be told to fail or
 * hang the next requests to a path.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { md5Verify, type SignableValue } from '../md5.js';
import { macVerify } from '../mac.js';
import { parseMacAuthorization } from '../mac-header.js';

export const SECRET = 'game-secret-001';
export const CLIENT_ID = 'cli-7f3a';
export const APP_ID = 1001;
export const PLAYER = { kid: 'at-7f3a9c1e5b', macKey: 'mk-2d8e4f6a0c' };
export const MAC_HOST = '127.0.0.1';

export const PROFILE = {
  appId: '1001',
  userId: '90001',
  userCode: 'AB12C',
  username: 'player1',
  nickName: null,
  avatar: null,
  loginType: 3,
  registTime: '2024-01-01T00:00:00+00:00',
  registIp: '203.0.113.7',
  source: 0,
  loginList: [3],
  isGuest: false,
  provider: ['google'],
  openId: 'g-1',
  userRegion: 'US',
  unionId: null,
};
export const ARREARS = [
  {
    tradeNo: 7001,
    productId: 'gems.100',
    currency: 'USD',
    outTradeNo: 'x-1',
    bankTradeNo: null,
    refundAmount: 0.99,
    channelId: 2,
    channelType: 2,
    supplyStatus: 1,
    platform: 2,
  },
];

export interface Logged {
  method: string;
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  text: string;
  params: Record<string, unknown>;
  /** Result of the signature check (null: the endpoint is not signed). */
  signed: boolean | null;
}

type Override = { kind: 'status'; status: number; body: string; headers?: Record<string, string> } | { kind: 'hang' };

/** JSON.parse that keeps integers past 2^53 exact (as strings), like the service does. */
export function parseExact(text: string): unknown {
  return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}

export class FakePlatform {
  readonly log: Logged[] = [];
  readonly uploads: { path: string; bytes: Buffer; headers: IncomingMessage['headers'] }[] = [];
  base = '';
  macHost = MAC_HOST;
  readonly #server = http.createServer((req, res) => void this.#handle(req, res));
  readonly #overrides = new Map<string, Override[]>();
  readonly #nonces = new Set<string>();

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The next `times` requests to `path` get this answer (or hang). */
  next(path: string, o: Override, times = 1): void {
    const q = this.#overrides.get(path) ?? [];
    for (let i = 0; i < times; i++) q.push(o);
    this.#overrides.set(path, q);
  }

  requestsTo(path: string): Logged[] {
    return this.log.filter((l) => l.path === path);
  }

  reset(): void {
    this.log.length = 0;
    this.uploads.length = 0;
    this.#overrides.clear();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', this.base);
    const entry: Logged = {
      method: req.method ?? '',
      url: req.url ?? '',
      path: url.pathname,
      headers: req.headers,
      text: raw.toString('utf8'),
      params: {},
      signed: null,
    };
    this.log.push(entry);
    const o = this.#overrides.get(url.pathname)?.shift();
    if (o?.kind === 'hang') return; // never answered
    if (o?.kind === 'status') {
      res.writeHead(o.status, { 'content-type': 'application/json', ...o.headers }).end(o.body);
      return;
    }
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    const rpc = (grpc: number, status: number, reason: string, code: number, message: string) =>
      send(status, {
        code: grpc,
        message,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason,
            domain: 'game-platform',
            metadata: { code: String(code) },
          },
        ],
      });
    const envelopeError = (status: number, code: number, msg: string, detail: string) =>
      send(status, { code, msg, detail, data: '' });
    const ok = (data: unknown) => send(200, { code: 200, msg: 'success', detail: '', data });

    /** 5.1 over `params`; also refuses a reused nonce, as the service does. */
    const md5 = (params: Record<string, unknown>): boolean => {
      entry.params = params;
      entry.signed = md5Verify(params as Record<string, SignableValue>, SECRET, String(params.sign));
      if (!entry.signed) return false;
      const nonce = String(params.nonce);
      if (this.#nonces.has(nonce)) return (entry.signed = false);
      this.#nonces.add(nonce);
      return true;
    };
    /** 5.2 over the request as received. */
    const mac = (): boolean => {
      try {
        const c = parseMacAuthorization(req.headers.authorization);
        entry.signed =
          c.id === PLAYER.kid &&
          !this.#nonces.has(c.nonce) &&
          macVerify(
            { ts: c.ts, nonce: c.nonce, method: req.method ?? '', uri: req.url ?? '', host: this.macHost, port: 443 },
            PLAYER.macKey,
            c.mac,
          );
        this.#nonces.add(c.nonce);
      } catch {
        entry.signed = false;
      }
      return entry.signed;
    };
    const query = Object.fromEntries(url.searchParams);

    switch (`${req.method} ${url.pathname}`) {
      case 'POST /svc/reporting/open/v1/player/report': {
        const body = parseExact(entry.text) as Record<string, unknown>;
        if (!md5(body)) return rpc(16, 401, 'BAD_SIGNATURE', 40101, 'sign does not match');
        return send(200, {});
      }
      case 'GET /svc/reporting/open/v1/upload/oss_sign_url':
        if (!md5(query)) return rpc(16, 401, 'BAD_SIGNATURE', 40101, 'sign does not match');
        return send(200, { signed_url: `${this.base}/objects/e1.png?expires=1&signature=abc`, ttl: '900' });
      case 'PUT /objects/e1.png':
        this.uploads.push({ path: url.pathname, bytes: raw, headers: req.headers });
        res.writeHead(200, { etag: '"e1"' }).end();
        return;
      case 'GET /api/account/v1/user/profile':
        if (query.clientId !== CLIENT_ID) return envelopeError(400, 40000, 'Invalid parameter.', 'clientId');
        if (!mac()) return envelopeError(403, 40300, 'Illegal access token.', 'mac does not match');
        return send(200, PROFILE);
      case 'GET /api/account/v1/svc_id':
        entry.params = query;
        if (query.openId !== 'g-1') return envelopeError(401, 40103, 'Illegal user id.', 'no user with this open id');
        return ok({ svcid: '90001' });
      case 'GET /order/v1/user/arrears':
        if (!mac()) return envelopeError(403, 40300, 'Illegal access token.', 'mac does not match');
        return ok({ list: ARREARS });
      case 'POST /order/v1/game/pay/notify': {
        const body = parseExact(entry.text) as Record<string, unknown>;
        if (typeof body.timestamp !== 'number')
          return envelopeError(400, 40000, 'Invalid parameter.', 'timestamp: must be a number');
        if (!md5(body)) return envelopeError(401, 40101, 'The signature does not match.', 'sign');
        return ok(true);
      }
      case 'POST /order/v1/game/orders/77/consumption': {
        const body = parseExact(entry.text) as Record<string, unknown>;
        if (!md5(body)) return envelopeError(401, 40101, 'The signature does not match.', 'sign');
        return ok({ trxNo: body.trxNo, consumptionPercentage: body.consumptionPercentage });
      }
      case 'GET /api/notify/v1/events':
        if (!md5(query)) return envelopeError(401, 40101, 'The signature does not match.', 'sign');
        return ok({
          list: [
            {
              notifyId: 5,
              type: 'payment',
              serverId: null,
              state: 'delivered',
              attempts: 1,
              createdAt: 1,
              deliveredAt: 2,
              body: '{"trxType":0}',
            },
          ],
          nextCursor: '5',
        });
      default:
        return envelopeError(404, 40400, 'Not found.', `no route for ${req.method} ${url.pathname}`);
    }
  }
}
