import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { SecretBox, decodeMasterKey } from '../crypto/secret-box.js';
import { migrations } from '../db/migrate.js';
import { freshDatabase } from '../testing/database.js';
import { startTestService } from '../testing/service.js';
import { hashPassword, newRecoveryCodes, newTotpSecret, sha256, totpCode } from './credentials.js';
import { portalSignIn } from '../testing/portal/portal.js';

/**
 * Across migration 0025 (one identity model): a database as the code before it left it, with a studio developer
 * invited (password, TOTP, recovery codes, an app) and an operator with an API token and a console session, written
 * exactly as 0016/0018's code wrote them (argon2id, secrets sealed under `operator-totp:`/`studio-totp:`, SHA-256
 * of tokens, cookies and codes); then the service of today migrates it and everyone signs in as before.
 */
describe('one identity model: across migration 0025', () => {
  it('lets a studio developer and an operator in with what they had, and keeps the operator token working', async () => {
    const fresh = await freshDatabase();
    const db = fresh.database.db as any;
    const schema = fresh.schema;
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0025'));
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => before },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateToLatest();
    assert.equal(error, undefined);

    const masterKey = crypto.randomBytes(32).toString('base64');
    const box = new SecretBox(decodeMasterKey(masterKey));
    const at = Date.now();
    const app = await db
      .insertInto('apps')
      .values({
        client_id: 'old-game',
        name: 'old game',
        region: 'overseas',
        secret_enc: box.seal('s'.repeat(32), 'app-secret:old-game'),
        secret_rotated_at: at,
        created_at: at,
        updated_at: at,
      })
      .returning('app_id')
      .executeTakeFirstOrThrow();
    const appId = Number(app.app_id);

    const account = async (name: string, context: string) => {
      const password = `${name} password long enough`;
      const totpSecret = newTotpSecret();
      const recoveryCodes = newRecoveryCodes();
      const row = {
        name,
        password_hash: await hashPassword(password),
        totp_secret_enc: box.seal(totpSecret, `${context}:${name}`),
        recovery_codes: JSON.stringify(recoveryCodes.map(sha256)),
        locked_until: null,
        last_login_at: null,
        created_at: at,
        updated_at: at,
      };
      return { row, password, totpSecret, recoveryCodes };
    };
    // The operator is id 1 and so is the developer: the migration must not mix them up.
    const admin = await account('old-admin', 'operator-totp');
    const operatorId = Number(
      (
        await db
          .insertInto('operators')
          .values({ ...admin.row, role: 'admin' })
          .returning('operator_id')
          .executeTakeFirstOrThrow()
      ).operator_id,
    );
    const dev = await account('old-dev', 'studio-totp');
    const developerId = Number(
      (await db.insertInto('studio_developers').values(dev.row).returning('developer_id').executeTakeFirstOrThrow())
        .developer_id,
    );
    await db.insertInto('studio_developer_apps').values({ developer_id: developerId, app_id: appId }).execute();
    // The same name in both: two people, as before.
    const twin = await account('old-dev', 'operator-totp');
    await db
      .insertInto('operators')
      .values({ ...twin.row, role: 'support' })
      .execute();

    const token = `gpo_${crypto.randomBytes(32).toString('base64url')}`;
    const tokenId = Number(
      (
        await db
          .insertInto('operator_tokens')
          .values({
            operator_id: operatorId,
            name: 'deploy script',
            token_hash: sha256(token),
            role: 'admin',
            created_at: at,
            expires_at: at + 30 * 86_400_000,
            last_used_at: null,
            revoked_at: null,
          })
          .returning('token_id')
          .executeTakeFirstOrThrow()
      ).token_id,
    );
    const cookie = crypto.randomBytes(32).toString('base64url');
    await db
      .insertInto('operator_sessions')
      .values({
        session_hash: sha256(cookie),
        operator_id: operatorId,
        csrf_token: 'csrf',
        ip: '127.0.0.1',
        created_at: at,
        expires_at: at + 3_600_000,
      })
      .execute();

    // Today's service: it migrates (0025) at start, with the same master key.
    const svc = await startTestService({ MASTER_KEY: masterKey }, { storage: fresh });
    try {
      const tables = (await db.introspection.getTables())
        .filter((t: { schema?: string }) => schema === undefined || t.schema === schema)
        .map((t: { name: string }) => t.name);
      assert.ok(tables.includes('people') && !tables.includes('operators') && !tables.includes('studio_developers'));

      // The developer: same password and TOTP, same app; then a recovery code of before.
      const signedIn = await portalSignIn(svc, {
        name: 'old-dev',
        password: dev.password,
        totp: totpCode(dev.totpSecret, Date.now()),
      });
      assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
      assert.deepEqual(signedIn.body.appIds, [appId]);
      const again = await portalSignIn(svc, {
        name: 'old-dev',
        password: dev.password,
        recoveryCode: dev.recoveryCodes[3],
      });
      assert.equal(again.status, 200);
      const apps = await svc.fetch('/portal/v1/apps', { headers: { cookie: `gp_studio_session=${again.cookie}` } });
      assert.equal(apps.status, 200);
      assert.deepEqual(
        ((await apps.json()) as any).apps.map((a: any) => a.appId),
        [appId],
      );
      // The developer's password is not the console's same-named operator's.
      const wrongDoor = await svc.fetch('/admin/v1/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'old-dev', password: dev.password, totp: totpCode(dev.totpSecret, Date.now()) }),
      });
      assert.equal(wrongDoor.status, 401);

      // The operator token of before: still the admin it was, with its id.
      const bearer = { authorization: `Bearer ${token}` };
      const whoami = await svc.fetch('/admin/v1/session', { headers: bearer });
      assert.equal(whoami.status, 200);
      assert.deepEqual((({ name, role, via }) => ({ name, role, via }))((await whoami.json()) as any), {
        name: 'old-admin',
        role: 'admin',
        via: 'token',
      });
      const tokens = (await (await svc.fetch('/admin/v1/operator-tokens', { headers: bearer })).json()) as any;
      assert.deepEqual(
        tokens.tokens.map((t: any) => [t.tokenId, t.name, t.operator]),
        [[tokenId, 'deploy script', 'old-admin']],
      );
      // Its console session of before, and a new sign-in with its password and TOTP.
      const session = await svc.fetch('/admin/v1/session', { headers: { cookie: `gp_operator_session=${cookie}` } });
      assert.equal(session.status, 200);
      const login = await svc.fetch('/admin/v1/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'old-admin',
          password: admin.password,
          totp: totpCode(admin.totpSecret, Date.now()),
        }),
      });
      assert.equal(login.status, 200);
      // The same-named operator is still its own person, with its own password.
      const twinLogin = await svc.fetch('/admin/v1/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'old-dev', password: twin.password, recoveryCode: twin.recoveryCodes[0] }),
      });
      assert.equal(twinLogin.status, 200);
      assert.equal(((await twinLogin.json()) as any).role, 'support');

      // New people and tokens take new ids after the moved ones (PostgreSQL's identity sequences were moved on).
      const made = await svc.admin('POST', '/operators', { name: 'new-op', role: 'operator' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const newToken = await svc.admin('POST', '/operator-tokens', { name: 'new', operator: 'new-op' });
      assert.equal(newToken.status, 201);
      assert.ok(newToken.body.info.tokenId > tokenId);
      const newDev = await svc.admin('POST', '/studio-developers', { name: 'new-dev', appIds: [appId] });
      assert.equal(newDev.status, 201);

      // The audit trail names the operator by the id it had.
      const after = await sql<{
        n: number;
      }>`select count(*) as n from admin_actions where operator_id = ${operatorId} and event = 'login'`.execute(db);
      assert.equal(Number(after.rows[0]!.n), 1);
    } finally {
      await svc.close();
    }
  });
});
