import type { Kysely } from 'kysely';

// 0030: store_key_locks, one row per store key (Apple transactionId, Google purchase token or orderId) that a
// purchase submission or a store refund touched (issue 39; docs/stores.md "Revocation"). Both take the row lock
// (an upsert) in the transaction that decides: the payment of a submission checks for a revocation under it, and a
// refund that finds no paid transaction records the revocation under it, so one of them always sees the other.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('store_key_locks')
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('store_key', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('store_key_locks_pk', ['store', 'store_key'])
    .execute();
}
