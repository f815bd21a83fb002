/**
 * Typed client of the service-hosted endpoints a game server calls (4.1-4.6, and the
 * pull reconciliation extension). Signs each attempt afresh (5.1 md5 with nonce and
 * timestamp, 5.2 MAC), times out, retries only what is safe, and raises
 * PlatformApiError / PlatformNetworkError / PlatformResponseError.
 */
import { randomBytes } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { md5Sign, type SignableValue } from '../md5.js';
import { buildMacAuthorization, DEFAULT_MAC_PORT } from '../mac.js';
import { stripQuery } from '../callback-sign.js';
import { apiErrorFrom, PlatformResponseError } from './errors.js';
import { checkInt64, stringifyJson } from './json.js';
import { exchange, type Attempt, type Exchange, type TransportOptions } from './transport.js';
import type {
  CallOptions,
  ConsumptionNotice,
  StoreConsumptionReport,
  EventsPage,
  EventsQuery,
  EvidenceFile,
  PendingSupplementOrder,
  PlayerToken,
  Profile,
  ReportRequest,
  SvcIdLoginType,
  UploadUrl,
  UploadUrlRequest,
} from './types.js';

export interface PlatformClientOptions {
  /** `{base_url}` of the account/order API, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string | URL;
  /** `{report_url}` of the reporting API (4.1, 4.2). Default: baseUrl. */
  reportUrl?: string | URL;
  /** Client id issued by the platform. */
  clientId: string;
  /** The md5 secret agreed with the platform (5.1): needed by report, upload URL, consumption notice and events. */
  secret?: string;
  /** Application id, sent in the consumption notice (4.6). */
  appId?: number;
  /** Host name signed in the MAC sign base (5.2). Default: the host name of baseUrl. */
  macHost?: string;
  /** Port signed in the MAC sign base. Default 443 (spec 8). */
  macPort?: number;
  /** Per attempt, in ms. Default 10000. */
  timeoutMs?: number;
  /** Further attempts of a safe-to-retry call. Default 2. */
  retries?: number;
  /** First backoff in ms (doubling, with jitter). Default 200. */
  retryDelayMs?: number;
  /** Longest backoff, also the cap on Retry-After. Default 5000. */
  maxRetryDelayMs?: number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Clock in ms, for the signed timestamps. Default Date.now. */
  now?: () => number;
  userAgent?: string;
}

const newNonce = (): string => randomBytes(16).toString('base64url');

function baseOf(u: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(String(u));
  } catch {
    throw new TypeError(`PlatformClient: ${what} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`PlatformClient: ${what} must be http(s)`);
  return url;
}

/** Query string with %20 for spaces (not `+`), keys in the given order. */
function queryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}

function parseJson(x: Exchange, what: string): unknown {
  try {
    return JSON.parse(x.text);
  } catch {
    throw new PlatformResponseError(`${what}: the answer is not JSON`, x.status, x.text, x.attempts);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export class PlatformClient {
  readonly #o: PlatformClientOptions;
  readonly #base: URL;
  readonly #report: URL;
  readonly #t: TransportOptions;
  readonly #now: () => number;

  constructor(options: PlatformClientOptions) {
    if (typeof options?.clientId !== 'string' || options.clientId === '')
      throw new TypeError('PlatformClient: clientId is required');
    this.#o = options;
    this.#base = baseOf(options.baseUrl, 'baseUrl');
    this.#report = options.reportUrl === undefined ? this.#base : baseOf(options.reportUrl, 'reportUrl');
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new TypeError('PlatformClient: no fetch available');
    this.#t = {
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 200,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 5_000,
      fetch: f,
      userAgent: options.userAgent ?? 'game-platform-sdk/0.1',
    };
    this.#now = options.now ?? Date.now;
  }

  // ---- 4.1 / 4.2: reporting (md5, rpcStatus errors) ----

  /** 4.1: report a player. Not retried once the platform may have seen it (a repeat would be a second report). */
  async report(req: ReportRequest, o: CallOptions = {}): Promise<void> {
    const reasons = req.reasons.map((r, i) => ({ ...r, id: checkInt64(r.id, `reasons[${i}].id`) }));
    const evidence = req.evidence?.map((e, i) =>
      e.size_byte === undefined ? e : { ...e, size_byte: checkInt64(e.size_byte, `evidence[${i}].size_byte`) },
    );
    const fields = {
      ...req,
      client_info: this.#clientInfo(req.client_info),
      reasons,
      ...(evidence ? { evidence } : {}),
    };
    const x = await this.#send(false, o, () => {
      const body: Record<string, SignableValue> = {
        ...(fields as unknown as Record<string, SignableValue>),
        nonce: newNonce(),
        timestamp: this.#seconds(),
      };
      body.sign = md5Sign(body, this.#secret());
      return this.#json('POST', this.#url(this.#report, '/svc/reporting/open/v1/player/report'), stringifyJson(body));
    });
    this.#expectOk(x);
  }

  /** 4.2: a signed URL to upload one evidence file to. `uri` is what to cite in `evidence[].uri` after the upload. */
  async getUploadUrl(req: UploadUrlRequest = {}, o: CallOptions = {}): Promise<UploadUrl> {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.#clientInfo(req.client_info)))
      if (v !== undefined) params[`client_info.${k}`] = v;
    if (req.svcid !== undefined) params.svcid = req.svcid;
    if (req.file_name !== undefined) params.file_name = req.file_name;
    if (req.file_size !== undefined) params.file_size = String(checkInt64(req.file_size, 'file_size'));
    const x = await this.#send(true, o, () =>
      this.#signedGet(this.#report, '/svc/reporting/open/v1/upload/oss_sign_url', params),
    );
    const body = this.#expectOk(x);
    if (!isObject(body) || typeof body.signed_url !== 'string' || body.signed_url === '') {
      throw new PlatformResponseError('4.2: the answer has no signed_url', x.status, x.text, x.attempts);
    }
    return { signed_url: body.signed_url, ttl: String(body.ttl ?? ''), uri: stripQuery(body.signed_url) };
  }

  /**
   * 4.2 step 2: HTTP PUT of the bytes to `signed_url`, with `If-None-Match: *` (an
   * object is never overwritten). Retried only when the connection was never made.
   */
  async upload(
    signedUrl: string,
    data: Uint8Array | string,
    o: CallOptions & { contentType?: string } = {},
  ): Promise<{ uri: string; size: number; etag: string | null }> {
    const url = baseOf(signedUrl, 'signed_url');
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const x = await this.#send(false, o, () => ({
      method: 'PUT',
      url,
      headers: { 'content-type': o.contentType ?? 'application/octet-stream', 'if-none-match': '*' },
      body: bytes,
    }));
    if (x.status < 200 || x.status > 299) throw apiErrorFrom(x.status, x.text, x.attempts);
    return { uri: stripQuery(signedUrl), size: bytes.byteLength, etag: x.headers.get('etag') };
  }

  /** 4.2 in one call: signed URL, upload, and the `evidence[]` entry to put in the report. */
  async uploadEvidence(
    f: {
      fileName: string;
      data: Uint8Array | string;
      svcid?: string;
      client_info?: UploadUrlRequest['client_info'];
      contentType?: string;
    },
    o: CallOptions = {},
  ): Promise<EvidenceFile> {
    const bytes = typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : f.data;
    const target = await this.getUploadUrl(
      {
        file_name: f.fileName,
        file_size: bytes.byteLength,
        ...(f.svcid !== undefined ? { svcid: f.svcid } : {}),
        ...(f.client_info !== undefined ? { client_info: f.client_info } : {}),
      },
      o,
    );
    const up = await this.upload(target.signed_url, bytes, {
      ...o,
      ...(f.contentType !== undefined ? { contentType: f.contentType } : {}),
    });
    return { name: f.fileName, size_byte: up.size, uri: target.uri };
  }

  // ---- 4.3 - 4.6: account and orders (2.3 envelope errors) ----

  /** 4.3: the profile (2.2) of the player whose MAC credentials these are: login verification. */
  async getProfile(token: PlayerToken, o: CallOptions = {}): Promise<Profile> {
    const x = await this.#send(true, o, () =>
      this.#macGet(token, '/api/account/v1/user/profile', { clientId: this.#o.clientId }),
    );
    const body = this.#expectOk(x);
    if (!isObject(body) || typeof body.userId !== 'string') {
      throw new PlatformResponseError('4.3: the answer is not a profile (no userId)', x.status, x.text, x.attempts);
    }
    return body as unknown as Profile;
  }

  /** 4.4: the platform user id (svcid) of a third-party open id. Needs an allow-listed egress IP. */
  async lookupSvcId(q: { loginType: SvcIdLoginType; openId: string }, o: CallOptions = {}): Promise<string> {
    const x = await this.#send(true, o, () => ({
      method: 'GET',
      url: this.#url(this.#base, '/api/account/v1/svc_id', {
        clientId: this.#o.clientId,
        loginType: q.loginType,
        openId: q.openId,
      }),
      headers: {},
    }));
    const data = this.#envelopeData(x, '4.4');
    if (!isObject(data) || typeof data.svcid !== 'string')
      throw new PlatformResponseError('4.4: data.svcid is missing', x.status, x.text, x.attempts);
    return data.svcid;
  }

  /** 4.5: the player's pending supplement orders (store refunds after items were granted). */
  async getArrears(token: PlayerToken, o: CallOptions = {}): Promise<PendingSupplementOrder[]> {
    const x = await this.#send(true, o, () =>
      this.#macGet(token, '/order/v1/user/arrears', { clientId: this.#o.clientId }),
    );
    const data = this.#envelopeData(x, '4.5');
    if (!isObject(data) || !Array.isArray(data.list))
      throw new PlatformResponseError('4.5: data.list is missing', x.status, x.text, x.attempts);
    return data.list as PendingSupplementOrder[];
  }

  /** 4.6: tell the platform about an in-game consumption. `timestamp` is a number here (5.1). Not retried once it may have been seen. */
  async notifyConsumption(n: ConsumptionNotice, o: CallOptions = {}): Promise<unknown> {
    const appId = n.appId ?? this.#o.appId;
    if (!Number.isSafeInteger(appId))
      throw new TypeError('notifyConsumption: appId is required (client option or argument)');
    const x = await this.#send(false, o, () => {
      const body: Record<string, SignableValue> = {
        userId: n.userId,
        roleId: n.roleId,
        serverId: n.serverId,
        productCode: n.productCode,
        appId: appId!,
        nonce: newNonce(),
        timestamp: Number(this.#seconds()),
      };
      body.sign = md5Sign(body, this.#secret());
      return this.#json('POST', this.#url(this.#base, '/order/v1/game/pay/notify'), stringifyJson(body));
    });
    return this.#envelopeData(x, '4.6');
  }

  /**
   * Report how much of a store purchase (an App Store or Google Play order, by `trxNo`) the player consumed, in
   * milliunits (0 to 100000: 100000 is all of it). The platform answers Apple's consumption requests for the order
   * with it, when the operator turned consumption information on (docs/stores.md). A later report replaces an earlier
   * one. md5-signed (5.1), the trxNo repeated in the signed body. Not retried once the platform may have seen it.
   */
  async reportStoreConsumption(r: StoreConsumptionReport, o: CallOptions = {}): Promise<unknown> {
    const appId = r.appId ?? this.#o.appId;
    if (!Number.isSafeInteger(appId))
      throw new TypeError('reportStoreConsumption: appId is required (client option or argument)');
    if (!Number.isSafeInteger(r.trxNo) || r.trxNo < 1)
      throw new TypeError('reportStoreConsumption: trxNo must be a positive safe integer');
    if (
      !Number.isSafeInteger(r.consumptionPercentage) ||
      r.consumptionPercentage < 0 ||
      r.consumptionPercentage > 100_000
    )
      throw new TypeError('reportStoreConsumption: consumptionPercentage must be an integer from 0 to 100000');
    const x = await this.#send(false, o, () => {
      const body: Record<string, SignableValue> = {
        appId: appId!,
        trxNo: r.trxNo,
        consumptionPercentage: r.consumptionPercentage,
        nonce: newNonce(),
        timestamp: Number(this.#seconds()),
      };
      body.sign = md5Sign(body, this.#secret());
      const path = `/order/v1/game/orders/${r.trxNo}/consumption`;
      return this.#json('POST', this.#url(this.#base, path), stringifyJson(body));
    });
    return this.#envelopeData(x, 'store consumption');
  }

  /**
   * Pull reconciliation (extension): this app's notifications after a time or cursor,
   * md5-signed over the query. Each `body` is the notification exactly as POSTed.
   */
  async listEvents(q: EventsQuery = {}, o: CallOptions = {}): Promise<EventsPage> {
    const params: Record<string, string> = { clientId: this.#o.clientId };
    for (const [k, v] of Object.entries(q)) {
      if (v === undefined) continue;
      if (k === 'nonce' || k === 'timestamp' || k === 'sign')
        throw new TypeError(`listEvents: ${k} is set by the client`);
      params[k] = String(v);
    }
    const x = await this.#send(true, o, () => this.#signedGet(this.#base, '/api/notify/v1/events', params));
    const data = this.#envelopeData(x, 'events');
    if (!isObject(data) || !Array.isArray(data.list))
      throw new PlatformResponseError('events: data.list is missing', x.status, x.text, x.attempts);
    return {
      ...data,
      list: data.list as EventsPage['list'],
      nextCursor: typeof data.nextCursor === 'string' ? data.nextCursor : null,
    };
  }

  // ---- helpers ----

  #send(idempotent: boolean, o: CallOptions, build: () => Attempt): Promise<Exchange> {
    return exchange(this.#t, { idempotent, build, signal: o.signal });
  }

  #seconds(): string {
    return String(Math.floor(this.#now() / 1000));
  }

  #secret(): string {
    const s = this.#o.secret;
    if (typeof s !== 'string' || s === '')
      throw new TypeError('PlatformClient: secret is required for md5-signed calls (5.1)');
    return s;
  }

  #clientInfo(ci: ReportRequest['client_info']): Record<string, string | undefined> {
    return { client_id: this.#o.clientId, ...ci };
  }

  /** `{base}{path}?{query}`, keeping a path prefix of the base URL. */
  #url(base: URL, path: string, query?: Record<string, string>): URL {
    const url = new URL(base.origin);
    url.pathname = base.pathname.replace(/\/+$/, '') + path;
    if (query) url.search = queryString(query);
    return url;
  }

  #json(method: 'POST', url: URL, body: string): Attempt {
    return { method, url, headers: { 'content-type': 'application/json' }, body };
  }

  /** GET with the 5.1 signature over every query parameter: fresh nonce and timestamp (a string) per attempt. */
  #signedGet(base: URL, path: string, params: Record<string, string>): Attempt {
    const all: Record<string, string> = { ...params, nonce: newNonce(), timestamp: this.#seconds() };
    all.sign = md5Sign(all, this.#secret());
    return { method: 'GET', url: this.#url(base, path, all), headers: {} };
  }

  /** GET with the 5.2 MAC header over the path and query exactly as sent. */
  #macGet(token: PlayerToken, path: string, query: Record<string, string>): Attempt {
    if (typeof token?.kid !== 'string' || token.kid === '' || typeof token.macKey !== 'string' || token.macKey === '') {
      throw new TypeError('PlayerToken: kid and macKey are required');
    }
    const url = this.#url(this.#base, path, query);
    const authorization = buildMacAuthorization({
      kid: token.kid,
      macKey: token.macKey,
      method: 'GET',
      uri: url.pathname + url.search,
      host: this.#o.macHost ?? this.#base.hostname,
      port: this.#o.macPort ?? DEFAULT_MAC_PORT,
      ts: Math.floor(this.#now() / 1000),
    });
    return { method: 'GET', url, headers: { authorization } };
  }

  /** The parsed body of a 200 answer; any other status raises the envelope's error. */
  #expectOk(x: Exchange): unknown {
    if (x.status !== 200) throw apiErrorFrom(x.status, x.text, x.attempts);
    return x.text === '' ? {} : parseJson(x, `HTTP ${x.status}`);
  }

  /** `data` of a 2.3 success envelope `{code: 200, msg, detail, data}`; another code raises, even with HTTP 200. */
  #envelopeData(x: Exchange, what: string): unknown {
    const body = this.#expectOk(x);
    if (!isObject(body) || !('code' in body))
      throw new PlatformResponseError(`${what}: the answer is not the 2.3 envelope`, x.status, x.text, x.attempts);
    if (Number(body.code) !== 200) throw apiErrorFrom(x.status, x.text, x.attempts);
    return body.data;
  }
}
