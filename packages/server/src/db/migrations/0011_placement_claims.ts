import type { Kysely } from 'kysely';

// 0011: who is placing a client order now (orders/placement-claims.ts). The
// first placement of a client orderId (2.4 rule 5: appId + outTrxNo) claims
// it before asking the game (4.8, 4.10); identical placements arriving
// meanwhile, on any instance, wait for that attempt and answer its outcome:
// the order, or the failure recorded here. `attempt` counts the placements
// that held the claim (a new one after a failed attempt has settled, or after
// a holder's lease ran out); `settled_attempt` and `outcome` are those of the
// last attempt that ended without an order. Rows are purged some minutes
// after their lease ends (lease_until index).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('placement_claims')
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('out_trx_no', 'text', (c) => c.notNull())
    .addColumn('request_digest', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('settled_attempt', 'integer')
    .addColumn('outcome', 'text')
    .addColumn('settled_at', 'bigint')
    .addPrimaryKeyConstraint('placement_claims_pk', ['app_id', 'out_trx_no'])
    .execute();
  await db.schema.createIndex('placement_claims_lease').on('placement_claims').column('lease_until').execute();
}
