import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OperatorEvent } from '../operators/operators.service.js';
import type { SignInSettings } from '../operators/sign-in.service.js';
import type { SignInMetrics } from '../operators/sign-in.metrics.js';
import { PortalRepository } from './portal.repository.js';
import { PortalSignInService } from './portal-sign-in.service.js';
import { StudioDeveloperService } from './studio-developers.service.js';

/** The studio portal's accounts and sign-in (docs/portal.md), wired from plain values. */
export function createPortal(deps: {
  db: Kysely<Tables>;
  box: SecretBox;
  issuer: string;
  requireApp: (appId: number) => Promise<unknown>;
  record: (e: OperatorEvent) => Promise<void>;
  signIn: SignInSettings;
  signInMetrics: SignInMetrics;
  now: () => number;
}): { studioDevelopers: StudioDeveloperService; portalSignIn: PortalSignInService } {
  const repo = new PortalRepository(deps.db);
  const studioDevelopers = new StudioDeveloperService(
    repo,
    deps.box,
    { issuer: deps.issuer },
    deps.requireApp,
    deps.record,
    deps.now,
  );
  return {
    studioDevelopers,
    portalSignIn: new PortalSignInService(repo, deps.box, studioDevelopers, deps.signIn, deps.signInMetrics, deps.now),
  };
}
