import type { NonceUse } from '../../auth/nonce-ledger.js';
import type { ConsumptionNoticesStore } from './consumption-notices.store.js';
import type { ConsumptionNoticeBody } from './consumption.schemas.js';

/**
 * In-game consumption notices (4.6): verified by the route's md5 hook (5.1,
 * the app named by `appId`; the nonce handed on), stored durably and
 * forwarded to the app's partner URL through the outbox, in one transaction
 * (the store's).
 *
 * Dedupe key: (appId, userId, roleId, serverId, productCode, timestamp). A
 * replay (the same nonce again) is refused like any md5 replay (NONCE_REUSED,
 * nothing written). A game that resends a notice whose answer it missed
 * signs it afresh (new nonce) but keeps the notice's timestamp: it is
 * answered with success and stored and forwarded once.
 */
export class ConsumptionService {
  constructor(private readonly notices: ConsumptionNoticesStore) {}

  /** Answers true when the notice was stored now, false when it was stored before; NONCE_REUSED for a used nonce. */
  notify(appId: number, body: ConsumptionNoticeBody, nonce: NonceUse): Promise<boolean> {
    return this.notices.create({ appId, body, nonce });
  }

  list(q: { appId?: number; userId?: string; before?: number; limit: number }) {
    return this.notices.list(q);
  }
}
