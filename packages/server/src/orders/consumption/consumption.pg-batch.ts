import { freshNoncesCte } from '../../auth/nonce-ledger.js';
import type { NamedQuery } from '../../db/database.js';
import { OUTBOX_COLUMNS } from '../../delivery/outbox.js';
import type { ConsumptionForward } from './consumption.schemas.js';
import type { ConsumptionNoticesTable } from '../orders.tables.js';

/** A notice as the batch statement takes it; `idx` is its place in the batch. */
export type NoticeRow = Pick<
  ConsumptionNoticesTable,
  'app_id' | 'nonce' | 'user_id' | 'role_id' | 'server_id' | 'product_code' | 'timestamp' | 'sign'
> & {
  idx: number;
  /** The request's nonce use (5.1): recorded in the same statement. */
  nonce_scope: string;
  nonce_expires_at: number;
};

/**
 * The partner body of ConsumptionForward, built in SQL: compact JSON, keys in
 * the interface's order, as JSON.stringify(consumptionForward(...)) builds it
 * on SQLite (consumption-notices.store.ts; consumption.test.ts checks they agree byte for byte).
 */
const FORWARD_FIELDS: Array<[keyof ConsumptionForward, string]> = [
  ['noticeId', 'notice_id::text'],
  ['notifyId', 'event_id::text'],
  ['notifyTime', '$2::bigint::text'],
  ['appId', 'app_id::text'],
  ['userId', 'to_json(user_id)::text'],
  ['roleId', 'to_json(role_id)::text'],
  ['serverId', 'to_json(server_id)::text'],
  ['productCode', 'to_json(product_code)::text'],
  ['timestamp', 'timestamp::text'],
];
const FORWARD_BODY = `'{' || ${FORWARD_FIELDS.map(([key, value], i) => `'${i ? ',' : ''}"${key}":' || ${value}`).join(' || ')} || '}'`;

/** The forward's outbox row, column by column as enqueueEvent writes it (delivery/outbox.ts). */
const FORWARD_ROW: Record<(typeof OUTBOX_COLUMNS)[number], string> = {
  app_id: 'app_id',
  type: `'consumption'`,
  target: `'partner'`,
  server_id: 'server_id',
  body: FORWARD_BODY,
  state: `'pending'`,
  attempts: '0',
  next_attempt_at: '$2::bigint',
  created_at: '$2::bigint',
  delivered_at: 'null',
  last_error: 'null',
  due_at: '$2::bigint',
  trace_parent: 'null',
};

/**
 * PostgreSQL: a batch of consumption notices (4.6), their requests' nonces
 * and their partner forwards in one statement, hence one round trip and one
 * atomic commit. A notice whose nonce was already recorded goes no further
 * (the nonce ledger's `fresh` CTE). Each admitted notice takes its notice id
 * and its event id (the forward's notifyId) up front, so the forward's body
 * is complete when its outbox row is written; a notice already stored (the
 * dedupe key) is skipped with its forward, leaving only a gap in the ids. $1
 * the notices (JSON array), $2 now. Answers, for each admitted notice, its
 * `idx` and whether it was stored now; a notice not in the answer had a used nonce.
 */
const STATEMENT = `
with i as (
  select * from json_to_recordset($1::json) as t(idx int, nonce_scope text, nonce_expires_at bigint,
    app_id bigint, nonce text, user_id text, role_id text, server_id text, product_code text, timestamp bigint, sign text)
),
${freshNoncesCte('i', { scope: 'nonce_scope', nonce: 'nonce', expiresAt: 'nonce_expires_at' })},
admitted as (select i.* from i join fresh on fresh.scope = i.nonce_scope and fresh.nonce = i.nonce),
-- The same notice twice among the admitted (resent at once with fresh nonces): the first is the candidate.
ids as materialized (
  select first.*, nextval(pg_get_serial_sequence('consumption_notices', 'notice_id')::regclass) as notice_id,
    nextval(pg_get_serial_sequence('outbox', 'event_id')::regclass) as event_id
  from (select admitted.*, row_number() over (
    partition by app_id, user_id, role_id, server_id, product_code, timestamp order by idx) as nth from admitted) first
  where nth = 1
),
stored as (
  insert into consumption_notices (notice_id, app_id, nonce, user_id, role_id, server_id, product_code, timestamp, sign, event_id, received_at)
  select notice_id, app_id, nonce, user_id, role_id, server_id, product_code, timestamp, sign, event_id, $2::bigint from ids
  on conflict (app_id, user_id, role_id, server_id, product_code, timestamp) do nothing
  returning notice_id, event_id, app_id, user_id, role_id, server_id, product_code, timestamp
),
forwards as (
  insert into outbox (event_id, ${OUTBOX_COLUMNS.join(', ')})
  select event_id, ${OUTBOX_COLUMNS.map((c) => FORWARD_ROW[c]).join(', ')}
  from stored
)
select admitted.idx, stored.notice_id is not null as stored
from admitted left join ids on ids.idx = admitted.idx left join stored on stored.notice_id = ids.notice_id`;

/**
 * Runs the batch as a named statement (Database.named): planned once per connection, not per batch; 4.6 on
 * PostgreSQL 0.50x -> 0.68x its ceiling (docs/benchmarks.md, "What this round changed"). Its generic plan reads only by unique keys.
 */
export async function storeNoticesPg(
  named: NamedQuery,
  notices: NoticeRow[],
  now: number,
): Promise<Map<number, boolean>> {
  if (notices.length === 0) return new Map();
  const rows = await named<{ idx: number; stored: boolean }>('consumption_notices_batch', STATEMENT, [
    JSON.stringify(notices),
    now,
  ]);
  return new Map(rows.map((r) => [r.idx, r.stored]));
}
