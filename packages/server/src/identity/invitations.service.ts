import crypto from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { iso, isoOrNull } from './times.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { safeEqual } from '../crypto/secret-box.js';
import {
  checkPassword,
  hashPassword,
  newRecoveryCodes,
  newTotpSecret,
  sha256,
  totpStep,
  totpUri,
} from './credentials.js';
import type { InvitationWithPerson, InvitationsRepository } from './invitations.repository.js';
import type { Mailer } from './mailer.js';
import { EMAIL_PATTERN } from './people.schemas.js';
import type { PasskeyService, RelyingParty } from './passkeys.service.js';
import { PasskeyRefused } from './passkeys.service.js';
import type { PeopleRepository, PersonRow, Realm } from './people.repository.js';
import { pendingTotpContext, totpContext, type AuditContext, type PeopleService } from './people.service.js';

/**
 * Invitations the invitee completes (issue 42, docs/operators.md "Invitations and passkeys"): an operator makes a
 * single-use link that expires (INVITATION_TTL_HOURS) for a new account or the reset of one; the person who opens it
 * sets its own password and second factor (a TOTP it confirms with a code, or a passkey) and is shown its recovery
 * codes once. The operator sees the invitation's state only (pending, accepted, expired, revoked), never what the
 * invitee chose. The token is known by its SHA-256 only; the link carries it in the page's fragment (#), which the
 * browser sends to no server and no Referer.
 */

export type InvitationKind = 'invite' | 'reset';
export type InvitationState = 'pending' | 'accepted' | 'expired' | 'revoked';

export interface InvitationView {
  invitationId: number;
  realm: Realm;
  name: string;
  kind: InvitationKind;
  state: InvitationState;
  email: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  finishedAt: string | null;
}

/** What the operator is answered: the invitation, and the link only when it was not mailed to the invitee. */
export interface InvitationIssued {
  invitation: InvitationView;
  link: string | null;
  mail: 'sent' | 'failed' | 'off';
}

/** How one realm's invitations are completed: where its page is, and how the trail names the invitee. */
export interface RealmDoor {
  realm: Realm;
  people: PeopleService;
  /** '/console', '/portal': the page whose #/invitation/<token> completes it. */
  page: string;
  actor: (name: string) => string;
  title: string;
}

export const INVITATION_TOKEN = /^gpi_[A-Za-z0-9_-]{43}$/;
const newToken = () => `gpi_${crypto.randomBytes(32).toString('base64url')}`;

/** The one refusal of a link that is not good (unknown, used, expired, revoked, another realm's). */
const refusedLink = () =>
  new AppError('NOT_FOUND', 'this link is unknown, used, expired or revoked: ask for a new one');

export class InvitationService {
  constructor(
    private readonly repo: InvitationsRepository,
    private readonly people: PeopleRepository,
    private readonly box: SecretBox,
    private readonly passkeys: PasskeyService,
    private readonly door: RealmDoor,
    private readonly mailer: Mailer,
    private readonly ttlMs: number,
    private readonly issuer: string,
    private readonly now: () => number = Date.now,
  ) {}

  view(r: InvitationWithPerson): InvitationView {
    const expired = r.state === 'pending' && Number(r.expires_at) <= this.now();
    return {
      invitationId: r.invitation_id,
      realm: r.realm as Realm,
      name: r.name,
      kind: r.kind as InvitationKind,
      state: expired ? 'expired' : (r.state as InvitationState),
      email: r.email,
      createdBy: r.created_by,
      createdAt: iso(Number(r.created_at)),
      expiresAt: iso(Number(r.expires_at)),
      finishedAt: isoOrNull(r.finished_at === null ? null : Number(r.finished_at)),
    };
  }

  /** This realm's invitations, newest first. */
  async list(): Promise<InvitationView[]> {
    return (await this.repo.list(500, this.door.realm)).map((r) => this.view(r));
  }

  private async require(id: number): Promise<InvitationWithPerson> {
    const row = await this.repo.byId(id);
    if (!row || row.realm !== this.door.realm) throw new AppError('NOT_FOUND', `no invitation ${id}`);
    return row;
  }

  /**
   * A new link for `person` (a new account: 'invite'; new credentials for an existing one: 'reset'); any earlier
   * pending link of the person dies. With SMTP_URL and an e-mail address, the link goes to the invitee by mail and
   * is not answered.
   */
  async issue(
    person: PersonRow,
    kind: InvitationKind,
    email: string | null,
    actor: string,
    ctx: AuditContext | null,
    origin: string,
  ): Promise<InvitationIssued> {
    if (email !== null && (email.length > 254 || !new RegExp(EMAIL_PATTERN).test(email)))
      throw invalidParameter('email', 'an e-mail address (ASCII)');
    const token = newToken();
    const at = this.now();
    const row = await this.repo.insert(
      {
        person_id: person.person_id,
        kind,
        token_hash: sha256(token),
        email,
        state: 'pending',
        created_by: actor,
        pending_totp_enc: null,
        created_at: at,
        expires_at: at + this.ttlMs,
        finished_at: null,
      },
      at,
    );
    await this.door.people.audit('invitation-created', actor, ctx, `#${row.invitation_id} ${kind} ${person.name}`);
    return this.deliver((await this.repo.byId(row.invitation_id))!, token, origin);
  }

  /** A new token and expiry for an invitation not yet accepted: the old link dies. */
  async resend(id: number, actor: string, ctx: AuditContext | null, origin: string): Promise<InvitationIssued> {
    const row = await this.require(id);
    const token = newToken();
    const at = this.now();
    if (!(await this.repo.renew(id, sha256(token), at + this.ttlMs, actor, at)))
      throw new AppError('CONFLICT', `invitation ${id} was accepted already`);
    await this.door.people.audit('invitation-resent', actor, ctx, `#${id} ${row.name}`);
    return this.deliver((await this.repo.byId(id))!, token, origin);
  }

  async revoke(id: number, actor: string, ctx: AuditContext | null): Promise<InvitationView> {
    const row = await this.require(id);
    if (!(await this.repo.revoke(id, this.now())))
      throw new AppError('CONFLICT', `invitation ${id} is not pending (${this.view(row).state})`);
    await this.door.people.audit('invitation-revoked', actor, ctx, `#${id} ${row.name}`);
    return this.view((await this.repo.byId(id))!);
  }

  private async deliver(row: InvitationWithPerson, token: string, origin: string): Promise<InvitationIssued> {
    const door = this.door;
    const link = `${origin}${door.page}#/invitation/${token}`;
    if (!this.mailer || !row.email) return { invitation: this.view(row), link, mail: 'off' };
    const what = row.kind === 'reset' ? 'set a new password and second factor' : 'set up your account';
    try {
      await this.mailer({
        to: row.email,
        subject: `${door.title}: ${row.kind === 'reset' ? 'reset your sign-in' : 'your invitation'}`,
        text: [
          `Open this link to ${what} (${row.name}):`,
          '',
          link,
          '',
          `It works once, until ${iso(Number(row.expires_at))}. If you did not expect it, ignore this mail.`,
        ].join('\n'),
      });
      return { invitation: this.view(row), link: null, mail: 'sent' };
    } catch {
      // The operator resends it (a new link) once the mail server answers; the link is never shown instead.
      return { invitation: this.view(row), link: null, mail: 'failed' };
    }
  }

  /** The pending, unexpired invitation of `token` in `realm`, with its person; else the one refusal. */
  private async open(token: string): Promise<{ inv: InvitationWithPerson; person: PersonRow }> {
    if (!INVITATION_TOKEN.test(token)) throw refusedLink();
    const hash = sha256(token);
    const inv = await this.repo.byHash(hash);
    // The lookup is by hash; the compare is in constant time all the same.
    if (!inv || !safeEqual(inv.token_hash, hash) || inv.realm !== this.door.realm) throw refusedLink();
    if (inv.state !== 'pending' || Number(inv.expires_at) <= this.now()) throw refusedLink();
    const person = await this.people.byId(Number(inv.person_id));
    if (!person) throw refusedLink();
    return { inv, person };
  }

  /** What the invitee's page shows before it starts: whose account, which kind, until when. */
  async describe(token: string) {
    const { inv } = await this.open(token);
    return { name: inv.name, kind: inv.kind as InvitationKind, expiresAt: iso(Number(inv.expires_at)) };
  }

  /** A TOTP secret for the invitee to enrol (kept sealed on the invitation until confirmed with a code). */
  async startTotp(token: string) {
    const { inv } = await this.open(token);
    const secret = newTotpSecret();
    const sealed = this.box.seal(secret, pendingTotpContext(inv.invitation_id));
    if (!(await this.repo.updatePending(inv.invitation_id, inv.token_hash, { pending_totp_enc: sealed })))
      throw refusedLink();
    return { totpSecret: secret, totpUri: totpUri(secret, inv.name, this.issuer) };
  }

  /** The options of navigator.credentials.create() for the invitee's passkey. */
  async passkeyOptions(token: string, rp: RelyingParty) {
    const { person } = await this.open(token);
    return this.passkeys.registrationOptions(person, rp, 'invitation');
  }

  /**
   * Completes the link: the invitee's password and second factor (a TOTP code of the secret it was given, or a
   * passkey) replace whatever the account had (its passkeys too: a reset is for lost factors), a lock is lifted, the
   * sessions end, and new recovery codes are answered once. Everything is checked before the link is taken, so a
   * mistyped code does not burn it; the taking is one conditional update (one of two racing acceptances wins).
   */
  async accept(
    input: {
      token: string;
      password: string;
      totp?: string;
      passkey?: { name: string; response: RegistrationResponseJSON };
    },
    rp: () => RelyingParty,
    ctx: AuditContext,
  ): Promise<{ name: string; recoveryCodes: string[] }> {
    const { inv, person } = await this.open(input.token);
    const door = this.door;
    const realm = door.realm;
    checkPassword(input.password);
    const at = this.now();
    let totp: { sealed: string; step: number };
    let passkey = null;
    if (input.totp !== undefined && input.passkey === undefined) {
      if (!inv.pending_totp_enc) throw invalidParameter('totp', 'start the authenticator set-up first');
      const secret = this.box.open(inv.pending_totp_enc, pendingTotpContext(inv.invitation_id));
      const step = totpStep(secret, input.totp, at);
      if (step === null) throw invalidParameter('totp', 'the code does not match: check the clock of the device');
      totp = { sealed: this.box.seal(secret, totpContext(realm, person.name)), step };
    } else if (input.passkey !== undefined && input.totp === undefined) {
      passkey = await this.passkeys
        .verifyRegistration(person, input.passkey.response, input.passkey.name, rp(), 'invitation')
        .catch((e: unknown) => {
          if (e instanceof PasskeyRefused) throw invalidParameter('passkey', `was refused: ${e.message}`);
          throw e;
        });
      // No TOTP: a secret nobody knows, so no code matches.
      totp = { sealed: this.box.seal(newTotpSecret(), totpContext(realm, person.name)), step: 0 };
    } else throw invalidParameter('totp', 'give either totp (a code) or passkey');
    const codes = newRecoveryCodes();
    const done = await this.repo.accept(
      { id: inv.invitation_id, tokenHash: inv.token_hash, personId: person.person_id, at },
      {
        password_hash: await hashPassword(input.password),
        totp_secret_enc: totp.sealed,
        totp_last_step: totp.step,
        recovery_codes: JSON.stringify(codes.map(sha256)),
        failed_logins: 0,
        locked_until: null,
        updated_at: at,
      },
      passkey,
    );
    if (!done) throw refusedLink();
    await door.people.audit(
      'invitation-accepted',
      door.actor(person.name),
      ctx,
      `#${inv.invitation_id} ${inv.kind} with ${passkey ? 'a passkey' : 'TOTP'}`,
      realm === 'platform' ? person.person_id : null,
    );
    return { name: person.name, recoveryCodes: codes };
  }
}
