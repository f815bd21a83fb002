import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { partitionExistingTable } from '../partitions.js';

// 0029: on PostgreSQL, the two history tables that grow with traffic, delivery_attempts (every send of every event)
// and game_calls (every 4.8-4.10 call), become partitioned by day on started_at (db/partitions.ts), their rows moved,
// so retention drops whole days instead of deleting rows (issue 31). Their primary keys gain started_at. SQLite is
// unchanged. Not partitioned: nonces (their (scope, nonce) key is the replay guard and must stay unique across all
// time, which a partitioned table cannot enforce without the time column; they live minutes, so the table stays
// small), the outbox (its rows change state, and payment and refund notifications are kept forever), and the store
// and provider message logs (not purged: they are the record of money).
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const now = Date.now();
  await partitionExistingTable(db, { table: 'delivery_attempts', column: 'started_at' }, 'attempt_id', now);
  await partitionExistingTable(db, { table: 'game_calls', column: 'started_at' }, 'call_id', now);
}
