import type { SecretBox } from '../crypto/secret-box.js';
import type { PeopleRepository } from '../identity/people.repository.js';
import { PeopleService, type OperatorEvent } from '../identity/people.service.js';
import { SignIn, type Door, type SignInSettings } from '../identity/sign-in.js';
import type { SignInMetrics } from '../identity/sign-in.metrics.js';
import type { InvitationsRepository } from '../identity/invitations.repository.js';
import { InvitationService } from '../identity/invitations.service.js';
import type { PasskeyService } from '../identity/passkeys.service.js';
import type { Mailer } from '../identity/mailer.js';
import { PortalSignInService } from './portal-sign-in.service.js';
import { StudioDeveloperService, studioActor } from './studio-developers.service.js';

/** The portal's door: people of the studio realm, whose every grant is an app (none: an empty portal). */
const PORTAL_DOOR: Door = {
  realm: 'studio',
  metrics: 'studio_developer',
  accepts: (grants) => grants.every((g) => g.appId !== null),
  actor: studioActor,
  recordsId: false,
  events: {
    login: 'portal-login',
    failed: 'portal-login-failed',
    locked: 'portal-login-locked',
    logout: 'portal-logout',
  },
  refusal: 'PORTAL_LOGIN_FAILED',
};

/** The studio portal's accounts and sign-in (docs/portal.md), on the one identity model, wired from plain values. */
export function createPortal(deps: {
  people: PeopleRepository;
  box: SecretBox;
  issuer: string;
  requireApp: (appId: number) => Promise<unknown>;
  record: (e: OperatorEvent) => Promise<void>;
  signIn: SignInSettings;
  signInMetrics: SignInMetrics;
  invitations: InvitationsRepository;
  passkeys: PasskeyService;
  mailer: Mailer;
  invitationTtlMs: number;
  now: () => number;
}): { studioDevelopers: StudioDeveloperService; portalSignIn: PortalSignInService } {
  const people = new PeopleService(
    deps.people,
    deps.box,
    {
      realm: 'studio',
      noun: 'studio developer',
      events: {
        created: 'studio-developer-created',
        disabled: 'studio-developer-disabled',
        enabled: 'studio-developer-enabled',
      },
    },
    deps.issuer,
    deps.record,
    deps.now,
  );
  const door = new SignIn(PORTAL_DOOR, deps.people, deps.box, people, deps.signIn, deps.signInMetrics, deps.now);
  return {
    studioDevelopers: new StudioDeveloperService(
      people,
      new InvitationService(
        deps.invitations,
        deps.people,
        deps.box,
        deps.passkeys,
        { realm: 'studio', people, page: '/portal', actor: studioActor, title: 'Studio portal' },
        deps.mailer,
        deps.invitationTtlMs,
        deps.issuer,
        deps.now,
      ),
      deps.requireApp,
    ),
    portalSignIn: new PortalSignInService(door),
  };
}
