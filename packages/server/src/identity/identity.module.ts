import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Tables } from '../db/tables.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationService, type RealmDoor } from './invitations.service.js';
import { smtpMailer, type Mailer } from './mailer.js';
import { PasskeyService } from './passkeys.service.js';
import { PeopleRepository } from './people.repository.js';
import { PeopleService, type OperatorEvent, type RealmTerms } from './people.service.js';
import { SignIn, type Door, type SignInSettings } from './sign-in.js';
import { SignInMetrics } from './sign-in.metrics.js';

export type { PasskeyService } from './passkeys.service.js';
export type { SignInMetrics } from './sign-in.metrics.js';
export type { OperatorEvent } from './people.service.js';

/**
 * The one identity model (docs/decisions.md "One identity model"): operators and studio developers are people of
 * realms, signing in by the same rules; they differ in the grants their doors accept. What both realms share is
 * built once here; each realm's module (operators/, portal/) makes its people, invitations and door with `realmOf`.
 */
export interface Identity {
  people: PeopleRepository;
  invitations: InvitationsRepository;
  passkeys: PasskeyService;
  signInMetrics: SignInMetrics;
  box: SecretBox;
  /** The TOTP issuer shown in the authenticator: PUBLIC_HOST, else 'game platform'. */
  issuer: string;
  record: (e: OperatorEvent) => Promise<void>;
  signIn: SignInSettings;
  mailer: Mailer;
  invitationTtlMs: number;
  now: () => number;
}

export type IdentityConfig = Pick<
  Config,
  | 'PUBLIC_HOST'
  | 'OPERATOR_SESSION_SECONDS'
  | 'OPERATOR_LOGIN_MAX_FAILURES'
  | 'OPERATOR_LOCK_SECONDS'
  | 'OPERATOR_LOGIN_DELAY_MS'
  | 'SMTP_URL'
  | 'SMTP_FROM'
  | 'INVITATION_TTL_HOURS'
>;

export function createIdentity(deps: {
  db: Kysely<Tables>;
  box: SecretBox;
  config: IdentityConfig;
  /** Writes an account or sign-in event into the audit trail (admin-audit/). */
  record: (e: OperatorEvent) => Promise<void>;
  now: () => number;
}): Identity {
  const { config, now } = deps;
  const invitations = new InvitationsRepository(deps.db);
  return {
    people: new PeopleRepository(deps.db),
    invitations,
    passkeys: new PasskeyService(invitations, now),
    signInMetrics: new SignInMetrics(),
    box: deps.box,
    issuer: config.PUBLIC_HOST ?? 'game platform',
    record: deps.record,
    signIn: {
      sessionSeconds: config.OPERATOR_SESSION_SECONDS,
      maxFailures: config.OPERATOR_LOGIN_MAX_FAILURES,
      lockSeconds: config.OPERATOR_LOCK_SECONDS,
      failureDelayMs: config.OPERATOR_LOGIN_DELAY_MS,
    },
    mailer: smtpMailer(config.SMTP_URL, config.SMTP_FROM),
    invitationTtlMs: config.INVITATION_TTL_HOURS * 3_600_000,
    now,
  };
}

/** One realm on the identity model: its accounts' terms, its invitations' page, and the door its people sign in by. */
export interface RealmSpec {
  terms: RealmTerms;
  invitations: Omit<RealmDoor, 'realm' | 'people'>;
  door: Door;
}

/** The people, invitations and sign-in door of one realm (the console's, the portal's). */
export function realmOf(
  identity: Identity,
  spec: RealmSpec,
): { people: PeopleService; invitations: InvitationService; door: SignIn } {
  const { box, issuer, now } = identity;
  const people = new PeopleService(identity.people, box, spec.terms, issuer, identity.record, now);
  const invitations = new InvitationService(
    identity.invitations,
    identity.people,
    box,
    identity.passkeys,
    { realm: spec.terms.realm, people, ...spec.invitations },
    identity.mailer,
    identity.invitationTtlMs,
    issuer,
    now,
  );
  const door = new SignIn(spec.door, identity.people, box, people, identity.signIn, identity.signInMetrics, now);
  return { people, invitations, door };
}
