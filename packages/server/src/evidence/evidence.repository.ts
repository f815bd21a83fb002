import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { EvidenceUploadsTable } from './evidence.tables.js';

export type UploadRow = Selectable<EvidenceUploadsTable>;

/** SQL of evidence uploads. Methods taking `db` run in the caller's transaction. */
export class EvidenceRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async byKey(objectKey: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('evidence_uploads').selectAll().where('object_key', '=', objectKey).executeTakeFirst();
  }

  async byUris(uris: string[]): Promise<UploadRow[]> {
    if (uris.length === 0) return [];
    return this.db.selectFrom('evidence_uploads').selectAll().where('uri', 'in', uris).execute();
  }

  async byIds(ids: string[]): Promise<UploadRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('evidence_uploads').selectAll().where('upload_id', 'in', ids).execute();
  }

  /**
   * Records uploads that a report cites for the first time, in the report's
   * transaction: inserts the row (addresses are self-authenticating, 4.2
   * writes none), or marks a row written by 4.2 before 0007 as uploaded.
   * Racing reports both succeed; the first record stays.
   */
  async recordUploaded(db: Kysely<Tables>, rows: Insertable<EvidenceUploadsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('evidence_uploads')
      .values(rows)
      .onConflict((oc) =>
        oc
          .column('upload_id')
          .doUpdateSet((eb) => ({
            uploaded_at: eb.ref('excluded.uploaded_at'),
            uploaded_size: eb.ref('excluded.uploaded_size'),
          }))
          .where('evidence_uploads.uploaded_at', 'is', null),
      )
      .execute();
  }
}
