import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestService, type TestService } from '../testing/service.js';
import { totpCode } from './credentials.js';
import { completeInvitation, createOperator, postJson, tokenOf } from '../testing/operators.js';
import { auditEvents, sessionOf, signIn, withCookie } from '../testing/operators/operators.js';
import { portalSessionOf, portalAs, createDeveloper } from '../testing/portal/portal.js';
import { InvitationsRepository } from './invitations.repository.js';

/**
 * Invitations and passkeys under attack (issue 42): hostile values, a stranger's token (another realm's, a made-up
 * one), a used, revoked or expired link, a mistyped code that must not burn the link, two acceptances racing (one
 * wins, run many times on PostgreSQL), passkey routes without a person's session, another person's passkey, a
 * forged passkey answer, and single-use challenges.
 */
describe('invitations and passkeys: security', () => {
  let svc: TestService;
  let offset = 0;
  let appId: number;
  before(async () => {
    svc = await startTestService(
      { PUBLIC_ORIGIN: 'http://localhost:9' },
      { now: () => Date.now() + offset, dispatcher: false },
    );
    await createOperator(svc, 'root', 'admin');
    appId = (await svc.createApp({ name: 'Guarded Game' })).appId;
  });
  after(async () => {
    await svc?.close();
  });

  const invite = async (name: string) => {
    const made = await svc.admin('POST', '/operators', { name, role: 'support' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return made.body;
  };
  const password = 'a password of my own';

  it('refuses hostile values (NUL, lone surrogates, wrong shapes) with 400 and writes nothing', async () => {
    const made = await invite('hostile');
    const token = tokenOf(made.link);
    const people = async () => (await svc.admin('GET', '/operators')).body.operators.length;
    const before = await people();
    for (const body of [
      { name: 'x\u0000y', role: 'support' },
      { name: 'ok-name', role: 'support', email: 'a\u0000@example.test' },
      { name: 'ok-name', role: 'support', email: '\ud800@example.test' },
      { name: 'ok-name', role: 'support', email: 'é@example.test' },
      { name: 'ok-name', role: 'support', email: 'not an address' },
    ]) {
      const res = await svc.admin('POST', '/operators', body);
      assert.deepEqual([res.status, res.body.code], [400, 40000], JSON.stringify(body));
    }
    assert.equal(await people(), before);
    for (const [path, body] of [
      ['/admin/v1/invitation', { token: `${token}\u0000` }],
      ['/admin/v1/invitation', { token: token.replace(/.$/, '\ud800') }],
      ['/admin/v1/invitation', { token: 'gpi_short' }],
      ['/admin/v1/invitation/accept', { token, password: `${password}\u0000`, totp: '123456' }],
      ['/admin/v1/invitation/accept', { token, password: `\udc00${password}`, totp: '123456' }],
      ['/admin/v1/invitation/accept', { token, password, totp: '12\u00003456' }],
      ['/admin/v1/invitation/accept', { token, password, passkey: { name: '\ud800', response: {} } }],
      ['/portal/v1/invitation/accept', { token, password, totp: '123456', extra: 1 }],
    ] as const) {
      const res = await postJson(svc, path, body);
      assert.deepEqual([res.status, res.body.code], [400, 40000], `${path} ${JSON.stringify(body)}`);
    }
    // The link still works after all that.
    assert.equal((await postJson(svc, '/admin/v1/invitation', { token })).status, 200);
  });

  it("refuses a stranger's token: made up, of the other realm, or after a resend; all alike", async () => {
    const op = await invite('realm-op');
    const dev = await svc.admin('POST', '/studio-developers', { name: 'realm-dev', appIds: [appId] });
    const madeUp = `gpi_${crypto.randomBytes(32).toString('base64url')}`;
    for (const [path, token] of [
      ['/admin/v1/invitation', madeUp],
      ['/portal/v1/invitation', tokenOf(op.link)],
      ['/admin/v1/invitation', tokenOf(dev.body.link)],
      ['/portal/v1/invitation/totp', tokenOf(op.link)],
      ['/admin/v1/invitation/passkey-options', tokenOf(dev.body.link)],
    ] as const) {
      const res = await postJson(svc, path, { token });
      assert.deepEqual(
        [res.status, res.body.detail],
        [404, 'this link is unknown, used, expired or revoked: ask for a new one'],
        path,
      );
    }
    const accepted = await postJson(svc, '/portal/v1/invitation/accept', {
      token: tokenOf(op.link),
      password,
      totp: '123456',
    });
    assert.equal(accepted.status, 404);
    // A resend kills the old token at once.
    await svc.admin('POST', `/operator-invitations/${op.invitation.invitationId}/resend`);
    assert.equal((await postJson(svc, '/admin/v1/invitation', { token: tokenOf(op.link) })).status, 404);
    // The invitation ids of one realm are not the other's.
    const crossed = await svc.admin('POST', `/studio-developer-invitations/${op.invitation.invitationId}/revoke`);
    assert.equal(crossed.status, 404);
  });

  it('a mistyped code does not burn the link; a used link is refused; an expired one too', async () => {
    const made = await invite('typo');
    const token = tokenOf(made.link);
    const totp = await postJson(svc, '/admin/v1/invitation/totp', { token });
    const wrongCode = totpCode(totp.body.totpSecret, svc.now()) === '000000' ? '111111' : '000000';
    const wrong = await postJson(svc, '/admin/v1/invitation/accept', { token, password, totp: wrongCode });
    assert.deepEqual(
      [wrong.status, wrong.body.detail],
      [400, 'totp: the code does not match: check the clock of the device'],
    );
    const done = await postJson(svc, '/admin/v1/invitation/accept', {
      token,
      password,
      totp: totpCode(totp.body.totpSecret, svc.now()),
    });
    assert.equal(done.status, 200);
    const again = await postJson(svc, '/admin/v1/invitation/accept', {
      token,
      password,
      totp: totpCode(totp.body.totpSecret, svc.now()),
    });
    assert.equal(again.status, 404);

    const late = await invite('late');
    offset = 72 * 3_600_000 + 1000;
    try {
      assert.equal((await postJson(svc, '/admin/v1/invitation', { token: tokenOf(late.link) })).status, 404);
      const listed = (await svc.admin('GET', '/operator-invitations')).body.invitations;
      assert.equal(listed.find((i: any) => i.name === 'late').state, 'expired');
      // Expired, it may be resent: a new link, good for another INVITATION_TTL_HOURS.
      const resent = await svc.admin('POST', `/operator-invitations/${late.invitation.invitationId}/resend`);
      assert.equal((await postJson(svc, '/admin/v1/invitation', { token: tokenOf(resent.body.link) })).status, 200);
    } finally {
      offset = 0;
    }
  });

  it('two acceptances of one link race: exactly one wins, the other is refused (repeated)', async () => {
    const rounds = svc.services.database.dialect.name === 'postgres' ? 10 : 3;
    for (let round = 0; round < rounds; round++) {
      const made = await invite(`race-${round}`);
      const token = tokenOf(made.link);
      const totp = await postJson(svc, '/admin/v1/invitation/totp', { token });
      const code = totpCode(totp.body.totpSecret, svc.now());
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          postJson(svc, '/admin/v1/invitation/accept', { token, password: `${password} ${i}`, totp: code }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, 404, 404, 404], `round ${round}`);
      const winner = answers.findIndex((a) => a.status === 200);
      // The winner's password is the account's; the losers' are not.
      for (let i = 0; i < 4; i++) {
        const r = await signIn(svc, {
          name: `race-${round}`,
          password: `${password} ${i}`,
          recoveryCode: answers[winner]!.body.recoveryCodes[i],
        });
        assert.equal(r.status, i === winner ? 200 : 401, `round ${round} password ${i}`);
      }
    }
  });

  it('passkey routes need a person session; a token or the portal cookie is refused; nothing of another person', async () => {
    assert.equal((await svc.admin('GET', '/passkeys')).status, 409);
    const bare = await svc.fetch('/admin/v1/passkeys');
    assert.equal(bare.status, 401);
    const op = await createOperator(svc, 'keyholder', 'support');
    const s = await sessionOf(svc, op, svc.now());
    assert.deepEqual((await withCookie(svc, s.cookie, 'GET', '/passkeys')).body, { passkeys: [] });
    const options = await withCookie(svc, s.cookie, 'POST', '/passkeys/options', { csrf: s.csrfToken });
    assert.deepEqual(
      [options.status, options.body.rp.id, options.body.authenticatorSelection.userVerification],
      [200, 'localhost', 'required'],
    );
    // No CSRF token: refused.
    assert.equal((await withCookie(svc, s.cookie, 'POST', '/passkeys/options')).status, 403);
    // Another person's passkey (stored for a developer) cannot be removed by this operator.
    const dev = await createDeveloper(svc, 'key-dev', [appId]);
    const devRow = (await svc.services.studioDevelopers.people.repo.byName('studio', dev.name))!;
    const repo = new InvitationsRepository(svc.services.database.db);
    const stored = await repo.insertPasskey({
      person_id: devRow.person_id,
      credential_id: crypto.randomBytes(16).toString('base64url'),
      public_key: 'AA',
      sign_count: 0,
      transports: '[]',
      name: 'dev key',
      created_at: svc.now(),
      last_used_at: null,
    });
    const removed = await withCookie(svc, s.cookie, 'DELETE', `/passkeys/${stored.passkey_id}`, { csrf: s.csrfToken });
    assert.equal(removed.status, 404);
    const devSession = await portalSessionOf(svc, dev);
    assert.deepEqual(
      (await portalAs(svc, devSession, 'GET', '/passkeys')).body.passkeys.map((k: any) => k.name),
      ['dev key'],
    );
    // A forged answer naming the developer's credential is refused at the console's door (another realm).
    const forged = {
      id: stored.credential_id,
      rawId: stored.credential_id,
      type: 'public-key',
      response: {
        clientDataJSON: Buffer.from(
          JSON.stringify({ type: 'webauthn.get', challenge: 'x', origin: 'http://localhost:9' }),
        ).toString('base64url'),
        authenticatorData: 'AAAA',
        signature: 'AAAA',
      },
      clientExtensionResults: {},
    };
    const refused = await postJson(svc, '/admin/v1/session/passkey', { response: forged });
    assert.deepEqual([refused.status, refused.body.code], [401, 40108]);
    const atPortal = await postJson(svc, '/portal/v1/session/passkey', { response: forged });
    assert.deepEqual([atPortal.status, atPortal.body.code], [401, 40111]);
    const notes = (await auditEvents(svc, 'login-failed')).map((a: any) => a.note);
    assert.ok(notes.includes('passkey: unknown passkey'), notes.join('\n'));
    // After a password, a passkey answer of another person is no second factor.
    const withKey = await signIn(svc, { name: 'keyholder', password: op.password, passkey: forged });
    assert.equal(withKey.status, 401);
  });

  it('a WebAuthn challenge is good once, for its purpose and realm, until it expires', async () => {
    const repo = new InvitationsRepository(svc.services.database.db);
    const at = svc.now();
    await repo.insertChallenge(
      { challenge: 'c1', purpose: 'sign-in', realm: 'platform', person_id: null, expires_at: at + 1000 },
      at,
    );
    assert.equal(await repo.takeChallenge('c1', 'sign-in', 'studio', null, at), false);
    assert.equal(await repo.takeChallenge('c1', 'register', 'platform', null, at), false);
    assert.equal(await repo.takeChallenge('c1', 'sign-in', 'platform', null, at + 1000), false);
    assert.equal(await repo.takeChallenge('c1', 'sign-in', 'platform', null, at), true);
    assert.equal(await repo.takeChallenge('c1', 'sign-in', 'platform', null, at), false);
    // Two takers at once: one wins.
    await repo.insertChallenge(
      { challenge: 'c2', purpose: 'sign-in', realm: 'platform', person_id: null, expires_at: at + 1000 },
      at,
    );
    const taken = await Promise.all([1, 2, 3].map(() => repo.takeChallenge('c2', 'sign-in', 'platform', null, at)));
    assert.deepEqual(taken.filter(Boolean).length, 1);
  });
});
