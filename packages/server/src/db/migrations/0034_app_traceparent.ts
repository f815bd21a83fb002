import type { Kysely } from 'kysely';

// 0034: a per-app setting to continue a game's own `traceparent` on its signed requests (issue 41, docs/operations.md
// #tracing) without listing the game as a trusted proxy (which would also trust its X-Forwarded-For). Off by default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('trust_traceparent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
