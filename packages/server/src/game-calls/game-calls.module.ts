import type { Kysely } from 'kysely';
import type { AppService } from '../apps/apps.service.js';
import type { Config } from '../config/config.js';
import type { Dialect } from '../db/dialect.js';
import type { Tables } from '../db/tables.js';
import type { OutboundHttp } from '../delivery/http-client.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import { CallLogRepository } from './call-log.repository.js';
import { CallLogService } from './call-log.service.js';
import { GameCallsClient } from './game-calls.js';

export { callLogRoutes } from './call-log.routes.js';
export { registerCallLogCommands, type CallLogCommandServices } from './call-log.cli.js';
export type { GameCallsClient } from './game-calls.js';
export type { CallLogService } from './call-log.service.js';

/**
 * Builds the calls to games (4.8-4.10) and their log. It sits above delivery: it sends through delivery's outbound
 * client (the address guard of every call to games), signed by the platform keys; none of those imports game-calls.
 */
export function createGameCalls(d: {
  db: Kysely<Tables>;
  /** Database.reads: the operator's view of the log. */
  reads: Kysely<Tables>;
  dialect: Dialect;
  config: Pick<Config, 'GAME_CALL_TIMEOUT_MS'>;
  apps: AppService;
  keys: PlatformKeyService;
  http: OutboundHttp;
  now: () => number;
}): { gameCalls: GameCallsClient; callLog: CallLogService; calls: CallLogRepository } {
  const calls = new CallLogRepository(d.db, d.dialect);
  return {
    gameCalls: new GameCallsClient(calls, d.keys, d.http, { timeoutMs: d.config.GAME_CALL_TIMEOUT_MS }, d.now),
    callLog: new CallLogService(new CallLogRepository(d.reads, d.dialect), d.apps),
    calls,
  };
}
