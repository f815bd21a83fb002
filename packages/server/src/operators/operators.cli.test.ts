import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../testing/child.js';
import { TEST_DATABASE_URL } from '../testing/database.js';
import { startTestService, type TestService } from '../testing/service.js';
import { adminAs, codeOf, completeInvitation } from '../testing/operators.js';
import { signIn } from '../testing/operators/operators.js';

/** `operator ...` on the host: the way in when no admin can sign in (docs/operators.md). */
describe('operator CLI', () => {
  let svc: TestService;
  let env: Record<string, string>;
  before(async () => {
    svc = await startTestService({}, { dispatcher: false });
    const schema = svc.services.database.schema;
    env = {
      DATA_DIR: svc.config.dataDir,
      MASTER_KEY: svc.config.MASTER_KEY!,
      ADMIN_TOKEN: svc.adminToken,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
  });
  after(async () => {
    await svc.close();
  });
  const cli = async (...args: string[]) => {
    const r = await runCli(env, ['--json', 'operator', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  it('creates an admin who signs in to the service, makes and revokes a token, and lists both', async () => {
    const made = await cli('create', 'ada', '--role', 'admin');
    assert.deepEqual(
      [made.operator.name, made.operator.role, made.secondFactor.recoveryCodes.length],
      ['ada', 'admin', 10],
    );
    const signedIn = await signIn(svc, {
      name: 'ada',
      password: made.password,
      totp: codeOf({ ...made.secondFactor, name: 'ada', role: 'admin', password: made.password }),
    });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));

    const t = await cli(
      'token',
      'create',
      'ada',
      '--name',
      'nightly export',
      '--role',
      'support',
      '--expires-in-days',
      '7',
    );
    assert.match(t.token, /^gpo_/);
    assert.equal((await adminAs(svc, t.token, 'GET', '/apps')).status, 200);
    assert.equal((await adminAs(svc, t.token, 'POST', '/apps', { name: 'no' })).status, 403);
    const listed = await cli('token', 'list', 'ada');
    assert.deepEqual(
      listed.tokens.map((x: any) => [x.name, x.role, x.lastUsedAt !== null]),
      [['nightly export', 'support', true]],
    );
    await cli('token', 'revoke', String(t.info.tokenId));
    assert.equal((await adminAs(svc, t.token, 'GET', '/apps')).status, 401);

    assert.equal((await cli('set-role', 'ada', 'moderator')).role, 'moderator');
    assert.equal((await cli('disable', 'ada')).disabled, true);
    assert.deepEqual(
      (await cli('list')).operators.map((o: any) => [o.name, o.role, o.disabled]),
      [['ada', 'moderator', true]],
    );
    // The next operator is invited: the CLI prints its link (never a password or a secret), which works.
    const invited = await runCli(env, ['operator', 'create', 'bea', '--role', 'support']);
    assert.equal(invited.code, 0, invited.stderr);
    const link =
      /link \(good once; hand it to bea only\): (http:\/\/localhost:\d+\/console#\/invitation\/gpi_\S+)/.exec(
        invited.stdout,
      )?.[1];
    assert.ok(link, invited.stdout);
    assert.doesNotMatch(invited.stdout, /password |TOTP secret|otpauth:|each good once/);
    const bea = await completeInvitation(svc, '/admin/v1', link);
    assert.equal(bea.recoveryCodes.length, 10);

    const reset = await cli('reset', 'ada');
    assert.deepEqual([reset.invitation.kind, reset.invitation.state, reset.mail], ['reset', 'pending', 'off']);
    assert.match(reset.link, /^http:\/\/localhost:\d+\/console#\/invitation\/gpi_[A-Za-z0-9_-]{43}$/);
  });

  it('refuses bad input with a message and exit code 1', async () => {
    const bad = await runCli(env, ['operator', 'create', 'Bad Name', '--role', 'admin']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /name: 2-64 characters/);
    const role = await runCli(env, ['operator', 'create', 'bob', '--role', 'root']);
    assert.match(role.stderr, /role: must be admin, operator, moderator or support/);
    const short = await runCli(env, ['operator', 'create', 'bob', '--role', 'admin', '--password', 'short']);
    assert.match(short.stderr, /password: must be 12-1024 characters/);
  });
});
