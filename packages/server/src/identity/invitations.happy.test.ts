import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-server.js';
import { codeOf, completeInvitation, createOperator, postJson, tokenOf } from '../testing/operators.js';
import { auditEvents, signIn } from '../testing/operators/operators.js';
import { portalSignIn } from '../testing/portal/portal.js';

/**
 * Invitations the invitee completes (issue 42, docs/operators.md "Invitations and passkeys"): the operator is answered
 * the invitation's state and a link, never the invitee's password or second factor; the invitee sets them; with
 * SMTP_URL the link goes out by mail (a real SMTP server on loopback) and is not answered at all.
 */
describe('invitations: happy paths', () => {
  let svc: TestService;
  let smtp: TestSmtpServer;
  let appId: number;
  before(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'platform@example.test' }, { dispatcher: false });
    await createOperator(svc, 'root', 'admin');
    appId = (await svc.createApp({ name: 'Invite Game' })).appId;
  });
  after(async () => {
    await svc?.close();
    await smtp?.close();
  });

  it('invites an operator: the operator sees the state and a link; the invitee sets its own factors and signs in', async () => {
    const made = await svc.admin('POST', '/operators', { name: 'ivy', role: 'operator' });
    assert.equal(made.status, 201);
    assert.deepEqual(Object.keys(made.body).sort(), ['invitation', 'link', 'mail', 'operator']);
    assert.deepEqual(
      [made.body.invitation.state, made.body.invitation.kind, made.body.invitation.createdBy, made.body.mail],
      ['pending', 'invite', 'ADMIN_TOKEN', 'off'],
    );
    const expires = Date.parse(made.body.invitation.expiresAt) - Date.parse(made.body.invitation.createdAt);
    assert.equal(expires, 72 * 3_600_000);
    // Pending: nothing signs in yet.
    assert.equal((await signIn(svc, { name: 'ivy', password: 'anything long enough', totp: '000000' })).status, 401);
    const about = await postJson(svc, '/admin/v1/invitation', { token: tokenOf(made.body.link) });
    assert.deepEqual([about.status, about.body.name, about.body.kind], [200, 'ivy', 'invite']);
    const ivy = await completeInvitation(svc, '/admin/v1', made.body.link);
    assert.equal(ivy.recoveryCodes.length, 10);
    const s = await signIn(svc, {
      name: 'ivy',
      password: ivy.password,
      totp: codeOf({ ...ivy, name: 'ivy', role: 'operator' }),
    });
    assert.equal(s.status, 200);
    const listed = await svc.admin('GET', '/operator-invitations');
    const row = listed.body.invitations.find((i: any) => i.name === 'ivy');
    assert.deepEqual([row.state, row.finishedAt !== null], ['accepted', true]);
    // The trail: created by the admin, accepted by the invitee itself.
    assert.equal((await auditEvents(svc, 'invitation-created'))[0].operator, 'ADMIN_TOKEN');
    const accepted = (await auditEvents(svc, 'invitation-accepted'))[0];
    assert.deepEqual([accepted.operator, accepted.note], ['ivy', `#${row.invitationId} invite with TOTP`]);
    // No answer to the operator ever held the invitee's secrets.
    const seen = JSON.stringify([made.body, listed.body, (await svc.admin('GET', '/operators/ivy')).body]);
    for (const secret of [ivy.password, ivy.totpSecret, ...ivy.recoveryCodes]) assert.ok(!seen.includes(secret));
  });

  it('resend makes a new link and kills the old; revoke kills a pending one; both audited', async () => {
    const made = await svc.admin('POST', '/studio-developers', { name: 'dev-r', appIds: [appId] });
    const id = made.body.invitation.invitationId;
    const resent = await svc.admin('POST', `/studio-developer-invitations/${id}/resend`);
    assert.deepEqual([resent.status, resent.body.invitation.state], [200, 'pending']);
    assert.notEqual(resent.body.link, made.body.link);
    const old = await postJson(svc, '/portal/v1/invitation', { token: tokenOf(made.body.link) });
    assert.deepEqual([old.status, old.body.code], [404, 40400]);
    const revoked = await svc.admin('POST', `/studio-developer-invitations/${id}/revoke`);
    assert.deepEqual([revoked.status, revoked.body.state], [200, 'revoked']);
    assert.equal((await postJson(svc, '/portal/v1/invitation', { token: tokenOf(resent.body.link) })).status, 404);
    // A revoked invitation may be resent: a new link that works.
    const again = await svc.admin('POST', `/studio-developer-invitations/${id}/resend`);
    const dev = await completeInvitation(svc, '/portal/v1', again.body.link);
    assert.equal(
      (await portalSignIn(svc, { name: 'dev-r', password: dev.password, recoveryCode: dev.recoveryCodes[0] })).status,
      200,
    );
    // Accepted: neither resent nor revoked.
    assert.equal((await svc.admin('POST', `/studio-developer-invitations/${id}/resend`)).status, 409);
    assert.equal((await svc.admin('POST', `/studio-developer-invitations/${id}/revoke`)).status, 409);
    for (const event of ['invitation-resent', 'invitation-revoked'])
      assert.ok(
        (await auditEvents(svc, event)).some((a: any) => a.note === `#${id} dev-r`),
        event,
      );
  });

  it('a reset link replaces the password and second factor; the old ones stop working', async () => {
    const op = await createOperator(svc, 'rex', 'support');
    const reset = await svc.admin('POST', '/operators/rex/reset', {});
    assert.equal(reset.body.invitation.kind, 'reset');
    const renewed = await completeInvitation(svc, '/admin/v1', reset.body.link);
    assert.equal(
      (await signIn(svc, { name: 'rex', password: op.password, recoveryCode: op.recoveryCodes[1] })).status,
      401,
    );
    assert.equal(
      (await signIn(svc, { name: 'rex', password: renewed.password, recoveryCode: renewed.recoveryCodes[1] })).status,
      200,
    );
  });

  it('with SMTP_URL and an address, the link goes out by mail (not answered), and the mailed link works', async () => {
    const before = smtp.mails.length;
    const made = await svc.admin('POST', '/studio-developers', {
      name: 'mailed-dev',
      appIds: [appId],
      email: 'mailed-dev@example.test',
    });
    assert.deepEqual([made.status, made.body.link, made.body.mail], [201, null, 'sent']);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    assert.deepEqual([mail!.from, mail!.to], ['platform@example.test', ['mailed-dev@example.test']]);
    const link = /(http:\/\/\S+\/portal#\/invitation\/gpi_[A-Za-z0-9_-]{43})/.exec(mail!.text)?.[1];
    assert.ok(link, mail!.text);
    assert.ok(!JSON.stringify(made.body).includes(tokenOf(link)));
    const dev = await completeInvitation(svc, '/portal/v1', link);
    assert.equal(
      (await portalSignIn(svc, { name: 'mailed-dev', password: dev.password, recoveryCode: dev.recoveryCodes[0] }))
        .status,
      200,
    );
    // Without an address the link is answered (and nothing is mailed).
    const plain = await svc.admin('POST', '/operators/rex/reset', {});
    assert.deepEqual([plain.body.mail, typeof plain.body.link], ['off', 'string']);
    assert.equal(smtp.mails.length, before + 1);
  });
});
