import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../tables.js';
import type { PrecheckMessagesTable } from './web-pay.tables.js';

export type PrecheckMessageRow = Selectable<PrecheckMessagesTable>;

/** Every statement on `web_pay_settings` and `precheck_messages` (migration 0015). */
export class WebPaySettingsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async servers(appId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('web_pay_settings')
      .select('servers')
      .where('app_id', '=', appId)
      .executeTakeFirst();
    return row?.servers;
  }

  async putServers(appId: number, servers: string, now: number): Promise<void> {
    await this.db
      .insertInto('web_pay_settings')
      .values({ app_id: appId, servers, updated_at: now })
      .onConflict((oc) => oc.column('app_id').doUpdateSet({ servers, updated_at: now }))
      .execute();
  }

  messages(appId: number): Promise<PrecheckMessageRow[]> {
    return this.db
      .selectFrom('precheck_messages')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('code')
      .orderBy('lang')
      .execute();
  }

  /** The texts of one code, by language. */
  messagesOf(appId: number, code: number): Promise<PrecheckMessageRow[]> {
    return this.db
      .selectFrom('precheck_messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('code', '=', code)
      .execute();
  }

  async putMessage(row: PrecheckMessageRow): Promise<void> {
    await this.db
      .insertInto('precheck_messages')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['app_id', 'code', 'lang']).doUpdateSet({ text: row.text, updated_at: row.updated_at }),
      )
      .execute();
  }

  /** Deletes one language of a code, or every language of it (lang undefined); answers how many. */
  async deleteMessages(appId: number, code: number, lang?: string): Promise<number> {
    let q = this.db.deleteFrom('precheck_messages').where('app_id', '=', appId).where('code', '=', code);
    if (lang !== undefined) q = q.where('lang', '=', lang);
    return Number((await q.executeTakeFirst()).numDeletedRows);
  }
}
