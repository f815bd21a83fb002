import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/schema.js';
import type { EvidenceUploadsTable } from './evidence.tables.js';

export type UploadRow = Selectable<EvidenceUploadsTable>;

/** SQL of evidence uploads. Methods taking `db` run in the caller's transaction. */
export class EvidenceRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<EvidenceUploadsTable>): Promise<void> {
    await this.db.insertInto('evidence_uploads').values(row).execute();
  }

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

  /** Records the upload once; false when it was already recorded. */
  async markUploaded(uploadId: string, size: number, at: number, db: Kysely<Tables> = this.db): Promise<boolean> {
    const result = await db.updateTable('evidence_uploads')
      .set({ uploaded_at: at, uploaded_size: size })
      .where('upload_id', '=', uploadId)
      .where('uploaded_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
