import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { deleteOldest } from '../db/delete-oldest.js';
import type { PayLinksTable } from './web-pay.tables.js';

export type PayLinkRow = Selectable<PayLinksTable>;

/** Every statement on `pay_links` (migration 0015). */
export class PayLinksRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<PayLinksTable>): Promise<void> {
    await this.db.insertInto('pay_links').values(row).execute();
  }

  /**
   * Marks the link used if it is unused and unexpired, in one statement (two opens at once: one wins), and answers
   * it; undefined for an unknown, used or expired link.
   */
  consume(linkHash: string, now: number): Promise<PayLinkRow | undefined> {
    return this.db
      .updateTable('pay_links')
      .set({ used_at: now })
      .where('link_hash', '=', linkHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes up to `limit` links that expired before `cutoff`, used or not (retention, one short statement). */
  purgeBefore(cutoff: number, limit: number): Promise<number> {
    return deleteOldest(this.db, { table: 'pay_links', key: 'link_hash', time: 'expires_at' }, cutoff, limit);
  }
}
