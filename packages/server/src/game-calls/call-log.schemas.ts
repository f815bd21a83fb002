import { Type, type Static } from '@sinclair/typebox';
import { QueryId, QueryTime } from '../http/admin-query.js';

export const GameCallKind = Type.Union([Type.Literal('role_query'), Type.Literal('role_list'), Type.Literal('pre_order_check')]);

/** What GameCallsClient records for each try (game-calls.tables.ts). */
export const GameCallOutcome = Type.Union(
  ['ok', 'no_role', 'blocked', 'rejected', 'invalid_response', 'timeout', 'network', 'refused', 'not_configured'].map((o) => Type.Literal(o)),
);

/** One try of a game-hosted call (4.8-4.10), as the operator sees it. */
export const GameCall = Type.Object({
  callId: Type.Integer(),
  appId: Type.Integer(),
  kind: Type.String({ description: 'role_query (4.8) | role_list (4.9) | pre_order_check (4.10)' }),
  startedAt: Type.String({ format: 'date-time' }),
  url: Type.Union([Type.String({ description: 'The URL called, without its query string.' }), Type.Null()]),
  tryNo: Type.Integer({ description: '1, or 2 for the retry of 4.8 and 4.10 (8).' }),
  httpStatus: Type.Union([Type.Integer(), Type.Null()]),
  latencyMs: Type.Integer(),
  outcome: Type.String({ description: 'ok | no_role | blocked | rejected | invalid_response | timeout | network | refused | not_configured' }),
  error: Type.Union([Type.String(), Type.Null()]),
}, { $id: 'GameCall', title: 'GameCall' });
export type GameCall = Static<typeof GameCall>;

export const GameCallListQuery = Type.Object({
  kind: Type.Optional(GameCallKind),
  outcome: Type.Optional(GameCallOutcome),
  failed: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: only tries whose outcome is not ok.' })),
  from: Type.Optional(QueryTime('Started at or after.')),
  to: Type.Optional(QueryTime('Started before.')),
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'Page: tries with a smaller id (nextBefore of the previous page).' })),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1-500, default 50.' })),
}, { additionalProperties: false });

export const GameCallList = Type.Object({
  calls: Type.Array(Type.Ref(GameCall)),
  nextBefore: Type.Union([Type.Integer(), Type.Null()], { description: 'Pass as `before` for the next page; null on the last.' }),
});

export const AppIdParams = Type.Object({ appId: QueryId });
