import type { SecretBox } from '../crypto/secret-box.js';
import type { PeopleRepository } from '../identity/people.repository.js';
import { PeopleService, type OperatorEvent } from '../identity/people.service.js';
import { SignIn, type Door, type SignInSettings } from '../identity/sign-in.js';
import type { SignInMetrics } from '../identity/sign-in.metrics.js';
import type { InvitationsRepository } from '../identity/invitations.repository.js';
import { InvitationService } from '../identity/invitations.service.js';
import type { PasskeyService } from '../identity/passkeys.service.js';
import type { Mailer } from '../identity/mailer.js';
import { OperatorService, platformRole } from './operators.service.js';
import { OperatorTokenService } from './operator-tokens.service.js';
import { SignInService } from './sign-in.service.js';

/** The console's door: people of the platform realm holding a platform role. */
const CONSOLE_DOOR: Door = {
  realm: 'platform',
  metrics: 'operator',
  accepts: (grants) => platformRole(grants) !== null,
  actor: (name) => name,
  recordsId: true,
  events: { login: 'login', failed: 'login-failed', locked: 'login-locked', logout: 'logout' },
  refusal: 'OPERATOR_LOGIN_FAILED',
};

/** Operator accounts, their console sign-in and API tokens (docs/operators.md), on the one identity model. */
export function createOperators(deps: {
  people: PeopleRepository;
  box: SecretBox;
  issuer: string;
  record: (e: OperatorEvent) => Promise<void>;
  signIn: SignInSettings;
  signInMetrics: SignInMetrics;
  invitations: InvitationsRepository;
  passkeys: PasskeyService;
  mailer: Mailer;
  invitationTtlMs: number;
  now: () => number;
}): {
  operators: OperatorService;
  operatorSignIn: SignInService;
  operatorTokens: OperatorTokenService;
} {
  const people = new PeopleService(
    deps.people,
    deps.box,
    {
      realm: 'platform',
      noun: 'operator',
      events: {
        created: 'operator-created',
        disabled: 'operator-disabled',
        enabled: 'operator-enabled',
      },
    },
    deps.issuer,
    deps.record,
    deps.now,
  );
  const invitations = new InvitationService(
    deps.invitations,
    deps.people,
    deps.box,
    deps.passkeys,
    { realm: 'platform', people, page: '/console', actor: (name) => name, title: 'Operator console' },
    deps.mailer,
    deps.invitationTtlMs,
    deps.issuer,
    deps.now,
  );
  const operators = new OperatorService(people, invitations);
  const door = new SignIn(CONSOLE_DOOR, deps.people, deps.box, people, deps.signIn, deps.signInMetrics, deps.now);
  return {
    operators,
    operatorSignIn: new SignInService(door, operators),
    operatorTokens: new OperatorTokenService(deps.people, operators, deps.now),
  };
}
