import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { PrecheckMessagesTable, WebPaySettingsTable } from './web-pay.tables.js';
import { rowsByKey } from '../db/by-key.js';

export type PrecheckMessageRow = Selectable<PrecheckMessagesTable>;
export type WebPaySettingsRow = Selectable<WebPaySettingsTable>;
export type WebPaySettingsChanges = Partial<Pick<WebPaySettingsRow, 'servers' | 'frame_ancestors' | 'return_urls'>>;

/** Every statement on `web_pay_settings` and `precheck_messages` (migrations 0015, 0017). */
export class WebPaySettingsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The app's row (servers, frame ancestors, return URLs: JSON texts), or undefined when none was set. */
  settings(appId: number): Promise<WebPaySettingsRow | undefined> {
    return this.db.selectFrom('web_pay_settings').selectAll().where('app_id', '=', appId).executeTakeFirst();
  }

  /** Sets the given JSON columns of the app's row (others kept; a new row starts with empty lists). */
  async putSettings(appId: number, changes: WebPaySettingsChanges, now: number): Promise<void> {
    const set = { ...changes, updated_at: now };
    await this.db
      .insertInto('web_pay_settings')
      .values({ app_id: appId, servers: '[]', frame_ancestors: '[]', return_urls: '[]', ...set })
      .onConflict((oc) => oc.column('app_id').doUpdateSet(set))
      .execute();
  }

  messages(appId: number): Promise<PrecheckMessageRow[]> {
    return rowsByKey(this.db, 'precheck_messages', { app_id: appId }, ['code', 'lang']);
  }

  /** The texts of one code, by language. */
  messagesOf(appId: number, code: number): Promise<PrecheckMessageRow[]> {
    return rowsByKey(this.db, 'precheck_messages', { app_id: appId, code });
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
