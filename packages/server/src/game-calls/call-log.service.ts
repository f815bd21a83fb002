import type { AppService } from '../apps/apps.service.js';
import type { CallLogRepository, GameCallFilter, GameCallRow } from './call-log.repository.js';
import type { Static } from '@sinclair/typebox';
import { nextBeforeOf } from '../http/admin-query.js';
import { parseGameCallQuery, type GameCall, type GameCallListQuery } from './call-log.schemas.js';

/**
 * The operator's view of the game-hosted calls (4.8-4.10): every try with
 * its outcome, status, latency and error, newest first. It answers "why did
 * this player's order fail?" when the role query or pre-order check did
 * (those calls run before an order exists, so the log is kept per app and
 * found by the role, server or user the call named).
 */
export class CallLogService {
  constructor(
    /** The log's reads: on Database.reads (the read replica), a moment stale at most. */
    private readonly repo: Pick<CallLogRepository, 'list'>,
    private readonly apps: Pick<AppService, 'get'>,
  ) {}

  /** An unknown app is NOT_FOUND, not an empty list. */
  async list(filter: GameCallFilter): Promise<GameCall[]> {
    await this.apps.get(filter.appId);
    return (await this.repo.list(filter)).map(toGameCall);
  }

  /** A page of an app's calls for its query, with the cursor of the next (the operator's and the studio's list). */
  async page(appId: number, query: Static<typeof GameCallListQuery>) {
    const filter = parseGameCallQuery(appId, query);
    const calls = await this.list(filter);
    return { calls, nextBefore: nextBeforeOf(calls, filter.limit, (c) => c.callId) };
  }
}

function toGameCall(r: GameCallRow): GameCall {
  return {
    callId: r.call_id,
    appId: r.app_id,
    kind: r.kind,
    startedAt: new Date(r.started_at).toISOString(),
    url: r.url,
    tryNo: r.try_no,
    httpStatus: r.http_status,
    latencyMs: r.latency_ms,
    outcome: r.outcome,
    error: r.error,
    roleId: r.role_id,
    serverId: r.server_id,
    userId: r.user_id,
  };
}
