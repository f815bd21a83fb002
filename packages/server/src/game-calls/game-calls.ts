import { openSpan, serverAddress, tracingOn } from '../tracing/tracing.js';
import { Value } from '@sinclair/typebox/value';
import type { CallLogRepository } from './call-log.repository.js';
import { GameCallMetrics } from './metrics.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import type { OutboundHttp, OutboundResult } from '../delivery/http-client.js';
import { PreOrderBlock, RoleListAnswer, RoleQueryAnswer, type RoleListEntry } from './game-calls.schemas.js';
import { isBuiltInPreOrderCode, PreOrderCodeMeanings } from './pre-order-codes.js';

export type { RoleListEntry } from './game-calls.schemas.js';
export type RoleQueryResult = RoleQueryAnswer;

/** Why a call gave no usable answer. */
export type GameCallFailureReason =
  | 'not_configured' // the app has no URL for this call
  | 'unreachable' // network error, timeout or refused address, after the retry where there is one
  | 'rejected' // a non-200 status (role query, role list)
  | 'invalid_response'; // 200 but not the shape of 2.6 (e.g. no platform user id in 4.8)

export interface GameCallFailure {
  ok: false;
  reason: GameCallFailureReason;
  httpStatus: number | null;
  /** For developers and logs; never shown to players. */
  detail: string;
}

export type RoleQueryOutcome = { ok: true; role: RoleQueryResult } | GameCallFailure;

export type RoleListOutcome =
  | { ok: true; roles: RoleListEntry[]; code: number | null; msg: string | null; detail: string | null }
  /** 4.9: HTTP 401 with empty results: the user has no role. */
  | { ok: false; reason: 'no_role'; httpStatus: 401; detail: string }
  /** 4.9: another non-200 status; `msg` is what the player sees. */
  | (GameCallFailure & { reason: 'rejected'; msg: string | null })
  | GameCallFailure;

export type PreOrderOutcome =
  /** 200 (checked) or no pre-order check URL configured (not checked: the check is advisory, 4.10). */
  | { allowed: true; checked: boolean }
  /**
   * Any non-200 blocks; code, msg and detail are the game's (null when
   * absent: blocked with no reason shown). `meaning` is the section-7 text of
   * a built-in code, null for a custom one.
   */
  | {
      allowed: false;
      reason: 'blocked';
      httpStatus: number;
      code: number | null;
      msg: string | null;
      detail: string | null;
      meaning: string | null;
    }
  | { allowed: false; reason: 'unreachable'; httpStatus: null; detail: string };

type Kind = 'role_query' | 'role_list' | 'pre_order_check';

/** Whom a call is about, kept in its log rows. */
interface CallSubject {
  roleId?: string;
  serverId?: string;
  userId?: string;
}

/**
 * Where a caller collects the writes of the call log instead of waiting for
 * each: order placement awaits them all once, before it answers, so the log
 * rows of its two calls cost it no round trip of its own.
 */
export interface CallLogs {
  logs?: Array<Promise<void>>;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The one client of the game-hosted calls 4.8-4.10, signed per 5.3 (GET with
 * an empty body). Role query and pre-order check are retried once when the
 * game cannot be reached (8); every try is logged with outcome and latency.
 */
export class GameCallsClient {
  constructor(
    private readonly log: CallLogRepository,
    private readonly keys: PlatformKeyService,
    private readonly http: OutboundHttp,
    private readonly opts: { timeoutMs: number },
    private readonly now: () => number = Date.now,
    readonly metrics: GameCallMetrics = new GameCallMetrics(),
  ) {}

  /** 4.8: GET {roleQueryUrl}?roleId=&serverId= */
  async roleQuery(
    app: AppRecord,
    q: { roleId: string; serverId: string },
    logs: CallLogs = {},
  ): Promise<RoleQueryOutcome> {
    if (!app.roleQueryUrl) return notConfigured('roleQueryUrl');
    const url = withQuery(app.roleQueryUrl, { roleId: q.roleId, serverId: q.serverId });
    // 4.8: "retried once after a failure": a game that cannot be reached or answers 5xx.
    const res = await this.call(
      logs,
      app,
      'role_query',
      q,
      'GET',
      url,
      '',
      (r) => r.failure !== undefined || (r.status ?? 0) >= 500,
      (r) => {
        if (r.failure) return r.failure;
        if (r.status !== 200) return 'rejected';
        return Value.Check(RoleQueryAnswer, parseJson(r.body)) ? 'ok' : 'invalid_response';
      },
    );
    if (res.failure) return unreachable(res);
    if (res.status !== 200)
      return {
        ok: false,
        reason: 'rejected',
        httpStatus: res.status,
        detail: `role query answered HTTP ${res.status}`,
      };
    const body = parseJson(res.body);
    if (!Value.Check(RoleQueryAnswer, body)) {
      return {
        ok: false,
        reason: 'invalid_response',
        httpStatus: 200,
        detail: `role query answer is not a role with a platform userId (2.6): ${firstError(RoleQueryAnswer, body)}`,
      };
    }
    return {
      ok: true,
      role: {
        ...body,
        roleLv: body.roleLv ?? null,
        serverId: body.serverId ?? null,
        serverName: body.serverName ?? null,
      },
    };
  }

  /** 4.9: GET {roleListUrl}?userId=[&serverId=] */
  async roleList(app: AppRecord, q: { userId: string; serverId?: string }): Promise<RoleListOutcome> {
    if (!app.roleListUrl) return notConfigured('roleListUrl');
    const url = withQuery(app.roleListUrl, {
      userId: q.userId,
      ...(q.serverId !== undefined ? { serverId: q.serverId } : {}),
    });
    const res = await this.call(
      {},
      app,
      'role_list',
      q,
      'GET',
      url,
      '',
      () => false,
      (r) => {
        if (r.failure) return r.failure;
        const b = parseJson(r.body) as { results?: unknown; msg?: unknown } | undefined;
        if (r.status === 401 && (!Array.isArray(b?.results) || b.results.length === 0)) return 'no_role';
        if (r.status !== 200) return 'rejected';
        return Value.Check(RoleListAnswer, b) ? 'ok' : 'invalid_response';
      },
    );
    if (res.failure) return unreachable(res);
    const body = parseJson(res.body) as
      { results?: unknown; msg?: unknown; detail?: unknown; code?: unknown } | undefined;
    if (res.status === 401 && (!Array.isArray(body?.results) || body.results.length === 0)) {
      return {
        ok: false,
        reason: 'no_role',
        httpStatus: 401,
        detail: 'the user has no role (HTTP 401, empty results)',
      };
    }
    if (res.status !== 200) {
      return {
        ok: false,
        reason: 'rejected',
        httpStatus: res.status,
        msg: typeof body?.msg === 'string' ? body.msg : null,
        detail: `role list answered HTTP ${res.status}`,
      };
    }
    if (!Value.Check(RoleListAnswer, body)) {
      return {
        ok: false,
        reason: 'invalid_response',
        httpStatus: 200,
        detail: `role list answer does not match 4.9: ${firstError(RoleListAnswer, body)}`,
      };
    }
    return {
      ok: true,
      roles: body.results.map((r) => ({ ...r, roleLv: r.roleLv ?? null, serverName: r.serverName ?? null })),
      code: body.code ?? null,
      msg: body.msg ?? null,
      detail: body.detail ?? null,
    };
  }

  /** 4.10: POST {preOrderCheckUrl} with a JSON body. */
  async preOrderCheck(
    app: AppRecord,
    q: { roleId: string; serverId: string; productSkuCode: string; quantity: number; extras?: string },
    logs: CallLogs = {},
  ): Promise<PreOrderOutcome> {
    if (!app.preOrderCheckUrl) return { allowed: true, checked: false };
    const body = JSON.stringify({
      roleId: q.roleId,
      serverId: q.serverId,
      productSkuCode: q.productSkuCode,
      quantity: q.quantity,
      ...(q.extras !== undefined ? { extras: q.extras } : {}),
    });
    // 4.10: only a failure to reach the game is retried; any answer but 200 blocks.
    const res = await this.call(
      logs,
      app,
      'pre_order_check',
      q,
      'POST',
      new URL(app.preOrderCheckUrl),
      body,
      (r) => r.failure !== undefined,
      (r) => r.failure ?? (r.status === 200 ? 'ok' : 'blocked'),
    );
    if (res.failure)
      return { allowed: false, reason: 'unreachable', httpStatus: null, detail: res.error ?? res.failure };
    if (res.status === 200) return { allowed: true, checked: true };
    const answer = parseJson(res.body);
    const block = Value.Check(PreOrderBlock, answer) ? answer : {};
    const code = typeof block.code === 'number' ? block.code : null;
    return {
      allowed: false,
      reason: 'blocked',
      httpStatus: res.status!,
      code,
      msg: block.msg ?? null,
      detail: block.detail ?? null,
      meaning: code !== null && isBuiltInPreOrderCode(code) ? PreOrderCodeMeanings[code] : null,
    };
  }

  /** One signed call, tried twice when `retry` says so; each try is logged (awaited here unless the caller collects the logs). */
  private async call(
    logs: CallLogs,
    app: AppRecord,
    kind: Kind,
    subject: CallSubject,
    method: 'GET' | 'POST',
    url: URL,
    body: string,
    retry: (r: OutboundResult) => boolean,
    outcome: (r: OutboundResult) => string,
  ): Promise<OutboundResult> {
    let res: OutboundResult | undefined;
    for (let tryNo = 1; tryNo <= 2; tryNo++) {
      const started = this.now();
      const headers = await this.keys.signCall({ method, path: url.pathname, body });
      // With tracing on: a client span per try, and its traceparent sent on (5.3 signs neither: docs/delivery.md).
      const span = tracingOn
        ? openSpan(`game call ${kind}`, {
            kind: 'client',
            attributes: {
              'game.app_id': app.appId,
              'game.call': kind,
              'game.try': tryNo,
              ...serverAddress(url.host, url.protocol),
            },
          })
        : null;
      res = await this.http.request({
        method,
        url,
        body,
        timeoutMs: this.opts.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
        headers: {
          ...headers,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          accept: 'application/json',
          'user-agent': 'game-platform/1',
          ...(span ? { traceparent: span.traceparent } : {}),
        },
      });
      const result = outcome(res);
      if (span) {
        if (res.status !== null) span.setAttribute('http.response.status_code', res.status);
        span.setAttribute('game.outcome', result);
        if (result !== 'ok' && result !== 'blocked' && result !== 'no_role') span.fail(result);
        span.end();
      }
      this.metrics.count(app.appId, kind, result);
      const logged = this.log.record({
        app_id: app.appId,
        kind,
        started_at: started,
        url: url.origin + url.pathname,
        try_no: tryNo,
        http_status: res.status,
        latency_ms: res.latencyMs,
        outcome: result,
        error: res.error ?? null,
        role_id: subject.roleId ?? null,
        server_id: subject.serverId ?? null,
        user_id: subject.userId ?? null,
      });
      if (logs.logs) {
        // Collected for the caller to await later: marked handled now, so a
        // failed write waits there instead of being an unhandled rejection meanwhile.
        logged.catch(() => {});
        logs.logs.push(logged);
      } else {
        await logged;
      }
      if (res.failure === 'refused' || !retry(res)) break;
    }
    return res!;
  }
}

function withQuery(base: string, params: Record<string, string>): URL {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function firstError(schema: Parameters<typeof Value.Errors>[0], value: unknown): string {
  const e = Value.Errors(schema, value).First();
  return e ? `${e.path || '(body)'} ${e.message}` : 'not JSON';
}

function notConfigured(field: string): GameCallFailure {
  return { ok: false, reason: 'not_configured', httpStatus: null, detail: `the app has no ${field}` };
}

function unreachable(res: OutboundResult): GameCallFailure {
  return { ok: false, reason: 'unreachable', httpStatus: null, detail: res.error ?? res.failure ?? 'unreachable' };
}
