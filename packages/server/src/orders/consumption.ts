import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { enqueueEvent } from '../delivery/outbox.js';
import { verifyMd5Request } from '../auth/md5.js';
import { AppError } from '../errors/app-error.js';
import type { Services } from '../services.js';
import type { ConsumptionForward, ConsumptionNoticeBody } from './consumption.schemas.js';

/**
 * In-game consumption notices (4.6): verified (md5 of 5.1, replay window and
 * one-time nonce), stored durably and forwarded to the app's partner URL
 * through the outbox, in one transaction.
 *
 * Dedupe key: (appId, userId, roleId, serverId, productCode, timestamp). A
 * replay (the same nonce again) is refused like any md5 replay (NONCE_REUSED,
 * nothing written). A game that resends a notice whose answer it missed
 * signs it afresh (new nonce) but keeps the notice's timestamp: it is
 * answered with success and stored and forwarded once.
 */
export class ConsumptionService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Answers true when the notice was stored now, false when it was stored before. */
  async notify(services: Services, body: ConsumptionNoticeBody): Promise<boolean> {
    const app = await services.apps.resolveByAppId(body.appId);
    if (!app || !app.active) throw new AppError('UNKNOWN_CLIENT', `appId ${body.appId} is not a known active app`);
    await verifyMd5Request(services, body as unknown as Record<string, unknown>, app.clientId);
    const now = this.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        const notice = await trx.insertInto('consumption_notices').values({
          app_id: app.appId,
          nonce: body.nonce,
          user_id: body.userId,
          role_id: body.roleId,
          server_id: body.serverId,
          product_code: body.productCode,
          timestamp: body.timestamp,
          sign: body.sign.toLowerCase(),
          event_id: 0,
          received_at: now,
        }).returning('notice_id').executeTakeFirstOrThrow();
        const { eventId } = await enqueueEvent(trx, {
          appId: app.appId,
          type: 'consumption',
          target: 'partner',
          serverId: body.serverId,
          body: (notifyId): ConsumptionForward => ({
            noticeId: notice.notice_id, notifyId, notifyTime: now, appId: app.appId,
            userId: body.userId, roleId: body.roleId, serverId: body.serverId, productCode: body.productCode, timestamp: body.timestamp,
          }),
        }, now);
        await trx.updateTable('consumption_notices').set({ event_id: eventId }).where('notice_id', '=', notice.notice_id).execute();
      });
      return true;
    } catch (err) {
      // Stored before (a resend, or its concurrent twin won): one row, one forward.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async list(q: { appId?: number; userId?: string; limit: number }) {
    let query = this.db.selectFrom('consumption_notices').selectAll();
    if (q.appId !== undefined) query = query.where('app_id', '=', q.appId);
    if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
    const rows = await query.orderBy('notice_id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      noticeId: r.notice_id, appId: r.app_id, userId: r.user_id, roleId: r.role_id, serverId: r.server_id,
      productCode: r.product_code, timestamp: r.timestamp, eventId: r.event_id, receivedAt: new Date(r.received_at).toISOString(),
    }));
  }
}
