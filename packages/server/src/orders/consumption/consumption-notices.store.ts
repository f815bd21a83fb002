import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { Batcher } from '../../db/batcher.js';
import type { Dialect } from '../../db/dialect.js';
import type { NamedQuery } from '../../db/database.js';
import { newestFirst, whereGiven } from '../../db/list-filter.js';
import { enqueueEvents, nextEventId, outboxSignal } from '../../delivery/outbox.js';
import { storeNoticesPg, type NoticeRow } from './consumption.pg-batch.js';
import { firstOfEachNonce, recordNonces, type NonceUse } from '../../auth/nonce-ledger.js';
import { ReplayGuard } from '../../auth/replay.js';
import type { ConsumptionForward, ConsumptionNoticeBody } from './consumption.schemas.js';
import type { ConsumptionNoticesTable } from '../orders.tables.js';

type ConsumptionNoticesRow = Selectable<ConsumptionNoticesTable>;
type NoticeFactsRow = Pick<
  ConsumptionNoticesRow,
  'app_id' | 'user_id' | 'role_id' | 'server_id' | 'product_code' | 'timestamp'
>;

export interface Notice {
  appId: number;
  body: ConsumptionNoticeBody;
  /** Recorded in the notice's own batch (handed on by the md5 hook): one round trip per batch, not two. */
  nonce: NonceUse;
}

/**
 * The partner body of a stored notice (ConsumptionForward), built in
 * JavaScript on SQLite; PostgreSQL builds the same bytes in SQL
 * (consumption.pg-batch.ts; consumption.test.ts checks they agree).
 */
export function consumptionForward(
  r: NoticeFactsRow & Pick<ConsumptionNoticesRow, 'notice_id'>,
  notifyId: number,
  now: number,
): ConsumptionForward {
  return { noticeId: r.notice_id, notifyId, notifyTime: now, ...noticeFacts(r) };
}

/** What the game reported of a notice (4.6), in the order the forward and the operator's list answer it. */
function noticeFacts(r: NoticeFactsRow) {
  return {
    appId: r.app_id,
    userId: r.user_id,
    roleId: r.role_id,
    serverId: r.server_id,
    productCode: r.product_code,
    timestamp: r.timestamp,
  };
}

/**
 * The consumption notices store (4.6): all SQL of consumption_notices, and
 * the notices' forwards to the partner URL through the outbox, in one
 * transaction. `create` answers whether a notice was stored now (false: it
 * was stored before, by the dedupe key of consumption.ts) and refuses a used
 * nonce (NONCE_REUSED, nothing written).
 *
 * Group commit: the notices of concurrent requests are stored together, with
 * their partner forwards, and each request is answered after that COMMIT. On
 * PostgreSQL a batch is one statement (consumption.pg-batch.ts); on SQLite one
 * transaction (a multi-row `INSERT ... ON CONFLICT DO NOTHING RETURNING`, each
 * notice naming the outbox event of its forward, then those events). Whether a notice is new is decided by the unique key, so
 * batches running at once, here or on other instances, stay correct.
 */
export class ConsumptionNoticesStore {
  readonly #batcher: Batcher<Notice, boolean>;

  /** `named`: PostgreSQL's named statements (Database.named), null on SQLite. */
  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
    private readonly named: NamedQuery | null,
    private readonly now: () => number = Date.now,
    /** Where the operator's list reads: Database.reads (the read replica), a moment stale at most. */
    private readonly reads: Kysely<Tables> = db,
  ) {
    this.#batcher = new Batcher((notices) => this.#insert(notices), {
      maxBatch: 200,
      maxInFlight: dialect.batchesInFlight(),
      retryAlone: true,
    });
  }

  /** Answers true when the notice was stored now, false when it was stored before; NONCE_REUSED for a used nonce. */
  create(notice: Notice): Promise<boolean> {
    return this.#batcher.submit(notice);
  }

  async #insert(notices: Notice[]): Promise<Array<boolean | Error>> {
    // The same nonce twice in one batch: only the first can be fresh.
    const first = firstOfEachNonce(notices.map((n) => n.nonce));
    const rows: NoticeRow[] = notices.flatMap(({ appId, body, nonce }, idx) =>
      first[idx]
        ? [
            {
              idx,
              nonce_scope: nonce.scope,
              nonce_expires_at: nonce.expiresAt,
              app_id: appId,
              nonce: body.nonce,
              user_id: body.userId,
              role_id: body.roleId,
              server_id: body.serverId,
              product_code: body.productCode,
              timestamp: body.timestamp,
              sign: body.sign.toLowerCase(),
            },
          ]
        : [],
    );
    const now = this.now();
    const outcome = this.named
      ? await storeNoticesPg(this.named, rows, now)
      : await this.#storeInTransaction(rows, now);
    if ([...outcome.values()].some(Boolean)) outboxSignal.emit('enqueued');
    // Answered only now, after COMMIT: a notice is durable before its request is answered.
    return notices.map((_, i) => outcome.get(i) ?? ReplayGuard.nonceReused());
  }

  /** SQLite: the nonces, the notices (each naming its forward's event) and the forwards, in one transaction. */
  async #storeInTransaction(notices: NoticeRow[], now: number): Promise<Map<number, boolean>> {
    return this.db.transaction().execute(async (trx) => {
      const outcome = new Map<number, boolean>();
      if (notices.length === 0) return outcome;
      const fresh = await recordNonces(
        trx,
        notices.map((n) => ({ scope: n.nonce_scope, nonce: n.nonce, expiresAt: n.nonce_expires_at })),
      );
      const admitted = notices.filter((_, i) => fresh[i]);
      for (const n of admitted) outcome.set(n.idx, false);
      // The same notice twice among the admitted (resent at once with fresh nonces): the first is the candidate.
      const contents = new Set<string>();
      const candidates = admitted.filter((n) => {
        const key = dedupeKey(n);
        if (contents.has(key)) return false;
        contents.add(key);
        return true;
      });
      if (candidates.length === 0) return outcome;
      // Each candidate is named its forward's event id before it is written; one stored before keeps its own.
      const firstEventId = await nextEventId(trx);
      const rows = await trx
        .insertInto('consumption_notices')
        .values(
          candidates.map((n, i) => ({
            app_id: n.app_id,
            nonce: n.nonce,
            user_id: n.user_id,
            role_id: n.role_id,
            server_id: n.server_id,
            product_code: n.product_code,
            timestamp: n.timestamp,
            sign: n.sign,
            event_id: firstEventId + i,
            received_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['app_id', 'user_id', 'role_id', 'server_id', 'product_code', 'timestamp']).doNothing(),
        )
        .returning(['notice_id', 'event_id', 'app_id', 'user_id', 'role_id', 'server_id', 'product_code', 'timestamp'])
        .execute();
      if (rows.length === 0) return outcome;
      await enqueueEvents(
        trx,
        rows.map((r) => ({
          eventId: r.event_id,
          event: {
            appId: r.app_id,
            type: 'consumption' as const,
            target: 'partner' as const,
            serverId: r.server_id,
            body: (notifyId: number) => consumptionForward(r, notifyId, now),
          },
        })),
        now,
      );
      const stored = new Set(rows.map((r) => dedupeKey(r)));
      for (const n of candidates) {
        if (stored.has(dedupeKey(n))) outcome.set(n.idx, true);
      }
      return outcome;
    });
  }

  async list(q: { appId?: number; userId?: string; before?: number; limit: number }) {
    const query = whereGiven(this.reads.selectFrom('consumption_notices').selectAll(), {
      app_id: q.appId,
      user_id: q.userId,
    });
    const rows = await newestFirst(query, 'notice_id', q).execute();
    return rows.map((r) => ({
      noticeId: r.notice_id,
      ...noticeFacts(r),
      eventId: r.event_id,
      receivedAt: new Date(r.received_at).toISOString(),
    }));
  }
}

/** The dedupe key of 4.6 (see consumption.ts), of a notice as stored. */
function dedupeKey(
  n: Pick<NoticeRow, 'app_id' | 'user_id' | 'role_id' | 'server_id' | 'product_code' | 'timestamp'>,
): string {
  return JSON.stringify([n.app_id, n.user_id, n.role_id, n.server_id, n.product_code, n.timestamp]);
}
