import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0004: player reports (4.1), evidence uploads (4.2), the duplicate guard and the moderation audit log.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('evidence_uploads')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('object_key', 'text', (c) => c.notNull().unique())
    .addColumn('uri', 'text', (c) => c.notNull().unique())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('declared_size', 'bigint', (c) => c.notNull())
    .addColumn('svcid', 'text')
    .addColumn('client_ip', 'text')
    .addColumn('device_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint')
    .addColumn('uploaded_size', 'bigint')
    .execute();

  let reports = addAutoIdColumn(db.schema.createTable('reports'), 'report_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_ip', 'text')
    .addColumn('device_id', 'text');
  for (const who of ['reporter', 'reportee']) {
    reports = reports
      .addColumn(`${who}_key`, 'text', (c) => c.notNull())
      .addColumn(`${who}_svcid`, 'text')
      .addColumn(`${who}_role_id`, 'text')
      .addColumn(`${who}_server_code`, 'text')
      .addColumn(`${who}_role_name`, 'text')
      .addColumn(`${who}_extra`, 'text');
  }
  await reports
    .addColumn('user_description', 'text')
    .addColumn('extras', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reports_reporter')
    .on('reports')
    .columns(['app_id', 'reporter_key', 'created_at'])
    .execute();
  await db.schema.createIndex('reports_reportee').on('reports').columns(['app_id', 'reportee_key', 'status']).execute();
  await db.schema.createIndex('reports_status').on('reports').columns(['status', 'report_id']).execute();
  await db.schema.createIndex('reports_created').on('reports').column('created_at').execute();

  await db.schema
    .createTable('report_reasons')
    .addColumn('report_id', 'bigint', (c) => c.notNull().references('reports.report_id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('reason_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('extras', 'text')
    .addPrimaryKeyConstraint('report_reasons_pk', ['report_id', 'position'])
    .execute();
  await db.schema
    .createIndex('report_reasons_reason')
    .on('report_reasons')
    .columns(['reason_id', 'report_id'])
    .execute();

  await db.schema
    .createTable('report_evidence')
    .addColumn('report_id', 'bigint', (c) => c.notNull().references('reports.report_id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('upload_id', 'text', (c) => c.notNull().references('evidence_uploads.upload_id'))
    .addColumn('name', 'text')
    .addColumn('size_byte', 'bigint', (c) => c.notNull())
    .addColumn('uri', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_evidence_pk', ['report_id', 'position'])
    .execute();

  await db.schema
    .createTable('report_dedupe')
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('report_id', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_dedupe_pk', ['app_id', 'dedupe_key'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('moderation_actions'), 'action_id', dialect)
    .addColumn('report_id', 'bigint', (c) => c.references('reports.report_id'))
    .addColumn('app_id', 'bigint')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('moderator', 'text')
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('note', 'text')
    .addColumn('details', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('moderation_actions_report')
    .on('moderation_actions')
    .columns(['report_id', 'action_id'])
    .execute();
}
