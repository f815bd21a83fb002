import { sql, type Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0025: one identity model (identity/, docs/operators.md "One identity model", issue 29). Operators (0016) and studio
// developers (0018) were two tables of the same person: a name, an argon2id password hash, a sealed TOTP secret,
// recovery codes, a lock, sessions. They become `people`, and what a person may do becomes a grant: a platform role
// (`person_grants.app_id` null) for an operator, an app with the studio role `developer` for a studio developer.
// A person's `realm` ('platform' or 'studio') is the namespace of its sign-in name, because the two tables let the
// same name stand for two different people; it is also the TOTP secret's sealing context (`operator-totp:<name>`,
// `studio-totp:<name>`), so the sealed secrets move as they are, with no master key needed here.
// Nothing is lost: password hashes, TOTP secrets and last steps, recovery codes, locks, sessions and API tokens move
// row for row; an operator keeps its id (admin_actions.operator_id names it) and a token its id (`#id` in the trail).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('people'), 'person_id', dialect)
    .addColumn('realm', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret_enc', 'text', (c) => c.notNull())
    .addColumn('totp_last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('recovery_codes', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('last_login_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('people_realm_name', ['realm', 'name'])
    .execute();

  await db.schema
    .createTable('person_grants')
    .addColumn('person_id', 'bigint', (c) => c.notNull().references('people.person_id'))
    // null: a platform role (the permission table, operators/permissions.ts); else the app the studio role is for.
    .addColumn('app_id', 'bigint', (c) => c.references('apps.app_id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_grants_person').on('person_grants').column('person_id').execute();

  await db.schema
    .createTable('person_sessions')
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'bigint', (c) => c.notNull().references('people.person_id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_sessions_person').on('person_sessions').column('person_id').execute();

  await addAutoIdColumn(db.schema.createTable('person_tokens'), 'token_id', dialect)
    .addColumn('person_id', 'bigint', (c) => c.notNull().references('people.person_id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('person_tokens_person').on('person_tokens').column('person_id').execute();

  const PERSON = [
    'name',
    'password_hash',
    'totp_secret_enc',
    'totp_last_step',
    'recovery_codes',
    'disabled',
    'failed_logins',
    'locked_until',
    'last_login_at',
    'created_at',
    'updated_at',
  ] as const;

  // Operators keep their ids: the audit trail's operator_id goes on naming the same person.
  for (const op of await db.selectFrom('operators').selectAll().orderBy('operator_id').execute()) {
    await db
      .insertInto('people')
      .values({ person_id: op.operator_id, realm: 'platform', ...pick(op, PERSON) })
      .execute();
    await db.insertInto('person_grants').values({ person_id: op.operator_id, app_id: null, role: op.role }).execute();
  }
  for (const s of await db.selectFrom('operator_sessions').selectAll().execute())
    await db
      .insertInto('person_sessions')
      .values({
        ...pick(s, ['session_hash', 'csrf_token', 'ip', 'created_at', 'expires_at']),
        person_id: s.operator_id,
      })
      .execute();
  for (const t of await db.selectFrom('operator_tokens').selectAll().orderBy('token_id').execute()) {
    const { operator_id, ...rest } = t;
    await db
      .insertInto('person_tokens')
      .values({ ...rest, person_id: operator_id })
      .execute();
  }
  // The explicit ids above: the identity sequences go on after the largest (SQLite's autoincrement does so itself).
  if (dialect === 'postgres') {
    await sql`select setval(pg_get_serial_sequence('people', 'person_id'), coalesce((select max(person_id) from people), 0) + 1, false)`.execute(
      db,
    );
    await sql`select setval(pg_get_serial_sequence('person_tokens', 'token_id'), coalesce((select max(token_id) from person_tokens), 0) + 1, false)`.execute(
      db,
    );
  }

  // Studio developers take new ids (nothing outside their own tables names them: the trail has `studio:<name>`).
  for (const dev of await db.selectFrom('studio_developers').selectAll().orderBy('developer_id').execute()) {
    const person = await db
      .insertInto('people')
      .values({ realm: 'studio', ...pick(dev, PERSON) })
      .returning('person_id')
      .executeTakeFirstOrThrow();
    const apps = await db
      .selectFrom('studio_developer_apps')
      .select('app_id')
      .where('developer_id', '=', dev.developer_id)
      .execute();
    for (const a of apps)
      await db
        .insertInto('person_grants')
        .values({ person_id: person.person_id, app_id: a.app_id, role: 'developer' })
        .execute();
    for (const s of await db
      .selectFrom('studio_sessions')
      .selectAll()
      .where('developer_id', '=', dev.developer_id)
      .execute())
      await db
        .insertInto('person_sessions')
        .values({
          ...pick(s, ['session_hash', 'csrf_token', 'ip', 'created_at', 'expires_at']),
          person_id: person.person_id,
        })
        .execute();
  }

  await db.schema.dropTable('studio_sessions').execute();
  await db.schema.dropTable('studio_developer_apps').execute();
  await db.schema.dropTable('studio_developers').execute();
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operator_tokens').execute();
  await db.schema.dropTable('operators').execute();
}

function pick<K extends string>(row: Record<string, unknown>, keys: readonly K[]): Record<K, unknown> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Record<K, unknown>;
}
