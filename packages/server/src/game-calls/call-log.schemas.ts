import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { invalidParameter } from '../errors/app-error.js';
import { PageOf, pageQuery } from '../http/admin-query.js';
import { parsePage, parseTimeWindow, timeWindowQuery } from '../http/list-query.js';
import type { GameCallFilter } from './call-log.repository.js';

/** The calls: role query (4.8), role list (4.9), pre-order check (4.10). */
export const GAME_CALL_KINDS = ['role_query', 'role_list', 'pre_order_check'] as const;
/** What GameCallsClient records for each try (game-calls.tables.ts). */
export const GAME_CALL_OUTCOMES = [
  'ok',
  'no_role',
  'blocked',
  'rejected',
  'invalid_response',
  'timeout',
  'network',
  'refused',
  'not_configured',
] as const;

const GameCallKind = Type.Union(GAME_CALL_KINDS.map((k) => Type.Literal(k)));
const GameCallOutcome = Type.Union(GAME_CALL_OUTCOMES.map((o) => Type.Literal(o)));

/** One try of a game-hosted call (4.8-4.10), as the operator sees it. */
export const GameCall = Type.Object(
  {
    callId: Type.Integer(),
    appId: Type.Integer(),
    kind: Type.String({ description: GAME_CALL_KINDS.join(' | ') }),
    startedAt: Type.String({ format: 'date-time' }),
    url: Type.Union([Type.String({ description: 'The URL called, without its query string.' }), Type.Null()]),
    tryNo: Type.Integer({ description: '1, or 2 for the retry of 4.8 and 4.10 (8).' }),
    httpStatus: Type.Union([Type.Integer(), Type.Null()]),
    latencyMs: Type.Integer(),
    outcome: Type.String({ description: GAME_CALL_OUTCOMES.join(' | ') }),
    error: Type.Union([Type.String(), Type.Null()]),
    roleId: Type.Union([Type.String(), Type.Null()], {
      description: 'The role the call named (4.8, 4.10); null for 4.9 and for calls logged before this was kept.',
    }),
    serverId: Type.Union([Type.String(), Type.Null()], {
      description: 'The server the call named; null when it named none.',
    }),
    userId: Type.Union([Type.String(), Type.Null()], {
      description: 'The platform user the call named (4.9); null for 4.8 and 4.10.',
    }),
  },
  { $id: 'GameCall', title: 'GameCall' },
);
export type GameCall = Static<typeof GameCall>;

export const GameCallListQuery = Type.Object(
  {
    kind: Type.Optional(GameCallKind),
    outcome: Type.Optional(GameCallOutcome),
    roleId: Type.Optional(
      Text({ minLength: 1, maxLength: 128, description: 'Only calls about this role (4.8, 4.10).' }),
    ),
    serverId: Type.Optional(Text({ minLength: 1, maxLength: 128, description: 'Only calls about this server.' })),
    userId: Type.Optional(
      Text({ minLength: 1, maxLength: 128, description: 'Only calls about this platform user (4.9).' }),
    ),
    failed: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: only tries whose outcome is not ok.',
      }),
    ),
    ...timeWindowQuery('Started'),
    ...pageQuery('tries'),
  },
  { additionalProperties: false },
);

export const GameCallList = PageOf('calls', Type.Ref(GameCall));

/** An app's call-log query (admin route and `game-calls list`) as a repository filter. */
export function parseGameCallQuery(appId: number, q: Static<typeof GameCallListQuery>): GameCallFilter {
  if (q.kind !== undefined && !(GAME_CALL_KINDS as readonly string[]).includes(q.kind))
    throw invalidParameter('kind', `must be ${GAME_CALL_KINDS.join(', ')}`);
  return {
    appId,
    ...(q.kind !== undefined ? { kind: q.kind } : {}),
    ...(q.outcome !== undefined ? { outcome: q.outcome } : {}),
    ...(q.roleId !== undefined ? { roleId: q.roleId } : {}),
    ...(q.serverId !== undefined ? { serverId: q.serverId } : {}),
    ...(q.userId !== undefined ? { userId: q.userId } : {}),
    ...(q.failed === 'true' ? { failed: true } : {}),
    ...parseTimeWindow(q),
    ...parsePage(q),
  };
}
