import crypto from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AppError } from '../errors/app-error.js';
import { iso, isoOrNull } from './times.js';
import type { InvitationsRepository, PasskeyRow } from './invitations.repository.js';
import type { PersonRow, Realm } from './people.repository.js';

/**
 * @simplewebauthn/server, loaded when a passkey is first registered or used (issue 44): it holds ~7 MB of heap that an
 * instance whose people never touch a passkey need not carry; with nodemailer (mailer.ts) it had taken the 100,000-event
 * backlog's RSS from 195 to 207 MB.
 */
let webauthnModule: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (webauthnModule ??= import('@simplewebauthn/server'));

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server; docs/operators.md "Invitations and passkeys"): several per
 * person, named, removable; a way to sign in alone (a discoverable credential with user verification is two factors
 * in one) and a second factor after the password. Every challenge is the service's, kept server-side, good once and
 * for CHALLENGE_MS; user verification is required; attestation is not asked for (none).
 */

/** Who the credentials are for: the RP ID (a host name) and the origin the browser must report. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export interface PasskeyView {
  passkeyId: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const CHALLENGE_MS = 5 * 60_000;
/** What a challenge is for: adding a passkey to an account, signing in, or enrolling one with an invitation. */
export type ChallengePurpose = 'register' | 'sign-in' | 'invitation';

/** The RP's user handle of a person: stable, and neither its name nor its id in the clear. */
const userHandle = (p: PersonRow) =>
  new Uint8Array(crypto.createHash('sha256').update(`${p.realm}:${p.person_id}`).digest());

/** What a refused WebAuthn answer says (never which check failed: that goes to the audit trail). */
export class PasskeyRefused extends Error {}

export class PasskeyService {
  constructor(
    private readonly repo: InvitationsRepository,
    private readonly now: () => number = Date.now,
  ) {}

  view(r: PasskeyRow): PasskeyView {
    return {
      passkeyId: r.passkey_id,
      name: r.name,
      createdAt: iso(Number(r.created_at)),
      lastUsedAt: isoOrNull(r.last_used_at === null ? null : Number(r.last_used_at)),
    };
  }

  async list(person: PersonRow): Promise<PasskeyView[]> {
    return (await this.repo.passkeysOf(person.person_id)).map((r) => this.view(r));
  }

  /** The options of navigator.credentials.create() for `person`, its challenge stored for `purpose`. */
  async registrationOptions(person: PersonRow, rp: RelyingParty, purpose: 'register' | 'invitation') {
    const existing = await this.repo.passkeysOf(person.person_id);
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: person.name,
      userID: userHandle(person),
      attestationType: 'none',
      excludeCredentials: existing.map((k) => ({
        id: k.credential_id,
        transports: JSON.parse(k.transports) as AuthenticatorTransport[],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: CHALLENGE_MS,
    });
    await this.storeChallenge(options.challenge, purpose, person.realm as Realm, person.person_id);
    return options;
  }

  /**
   * Checks a new credential of `person` against a challenge of `purpose`; answers the row to insert (the caller
   * inserts it: at once, or in the invitation's transaction). Throws PasskeyRefused.
   */
  async verifyRegistration(
    person: PersonRow,
    response: RegistrationResponseJSON,
    name: string,
    rp: RelyingParty,
    purpose: 'register' | 'invitation',
  ) {
    const at = this.now();
    const result = await (
      await webauthn()
    )
      .verifyRegistrationResponse({
        response,
        expectedChallenge: (c) => this.repo.takeChallenge(c, purpose, person.realm as Realm, person.person_id, at),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      })
      .catch((e: unknown) => {
        throw new PasskeyRefused(e instanceof Error ? e.message : String(e));
      });
    if (!result.verified || !result.registrationInfo) throw new PasskeyRefused('registration not verified');
    const { credential } = result.registrationInfo;
    if (await this.repo.passkeyByCredential(credential.id)) throw new PasskeyRefused('credential already registered');
    return {
      person_id: person.person_id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      sign_count: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      name,
      created_at: at,
      last_used_at: null,
    };
  }

  /** Adds a passkey to a signed-in person's account. */
  async add(person: PersonRow, response: RegistrationResponseJSON, name: string, rp: RelyingParty) {
    const row = await this.verifyRegistration(person, response, name, rp, 'register').catch((e: unknown) => {
      if (e instanceof PasskeyRefused) throw new AppError('INVALID_PARAMETER', `the passkey was refused: ${e.message}`);
      throw e;
    });
    return this.view(await this.repo.insertPasskey(row));
  }

  async remove(person: PersonRow, passkeyId: number): Promise<void> {
    if (!(await this.repo.deletePasskey(person.person_id, passkeyId)))
      throw new AppError('NOT_FOUND', `no passkey ${passkeyId} of yours`);
  }

  /** The options of navigator.credentials.get() for a sign-in (no name: the authenticator offers its passkeys). */
  async signInOptions(realm: Realm, rp: RelyingParty) {
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      timeout: CHALLENGE_MS,
    });
    await this.storeChallenge(options.challenge, 'sign-in', realm, null);
    return options;
  }

  /**
   * The person a sign-in answer proves (a passkey of `realm`, its challenge the service's and unused, the signature
   * right, the counter moving on). Throws PasskeyRefused with the reason.
   */
  async verifySignIn(
    realm: Realm,
    response: AuthenticationResponseJSON,
    rp: RelyingParty,
    personOf: (id: number) => Promise<PersonRow | undefined>,
  ): Promise<PersonRow> {
    const at = this.now();
    const key = await this.repo.passkeyByCredential(response.id);
    const person = key ? await personOf(Number(key.person_id)) : undefined;
    if (!key || !person || person.realm !== realm) throw new PasskeyRefused('unknown passkey');
    const result = await (
      await webauthn()
    )
      .verifyAuthenticationResponse({
        response,
        expectedChallenge: (c) => this.repo.takeChallenge(c, 'sign-in', realm, null, at),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: key.credential_id,
          publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
          counter: Number(key.sign_count),
          transports: JSON.parse(key.transports) as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      })
      .catch((e: unknown) => {
        throw new PasskeyRefused(e instanceof Error ? e.message : String(e));
      });
    if (!result.verified) throw new PasskeyRefused('signature not verified');
    if (!(await this.repo.usePasskey(key.passkey_id, Number(key.sign_count), result.authenticationInfo.newCounter, at)))
      throw new PasskeyRefused('passkey used by another sign-in at the same time');
    return person;
  }

  private async storeChallenge(challenge: string, purpose: ChallengePurpose, realm: Realm, personId: number | null) {
    const at = this.now();
    await this.repo.insertChallenge(
      { challenge, purpose, realm, person_id: personId, expires_at: at + CHALLENGE_MS },
      at,
    );
  }
}
