import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0010: the audit trail of the admin API (admin-audit/): every request that
// changes something, who sent it (X-Operator), what it named and how it ended.
// The row is written before the change runs and completed after the answer.
export async function up(db: Kysely<any>): Promise<void> {
  await addAutoIdColumn(db.schema.createTable('admin_actions'), 'action_id', dialectOf(db))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('operator', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('admin_actions_operator')
    .on('admin_actions')
    .columns(['operator', 'action_id'])
    .execute();
}
