import type { Kysely } from 'kysely';

// 0008: whom a game-hosted call (4.8-4.10) was about: the role and server it
// named (4.8, 4.10) or the platform user (4.9). Support answers "why did this
// player's order fail?" by role or user, so the log is indexed by both
// within an app, newest first. Rows written before stay without them.
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['role_id', 'server_id', 'user_id']) {
    await db.schema.alterTable('game_calls').addColumn(column, 'text').execute();
  }
  await db.schema
    .createIndex('game_calls_app_role')
    .on('game_calls')
    .columns(['app_id', 'role_id', 'call_id'])
    .execute();
  await db.schema
    .createIndex('game_calls_app_user')
    .on('game_calls')
    .columns(['app_id', 'user_id', 'call_id'])
    .execute();
}
