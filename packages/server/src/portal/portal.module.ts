import { realmOf, type Identity } from '../identity/identity.module.js';
import type { Door } from '../identity/sign-in.js';
import { PortalSignInService } from './portal-sign-in.service.js';
import { StudioDeveloperService, studioActor } from './studio-developers.service.js';

export { installPortalAccess, studioOf } from './portal-access.routes.js';
export { studioActor } from './studio-developers.service.js';
export { portalRoutes } from './portal.routes.js';
export { portalDeliveryRoutes } from './portal-delivery.routes.js';
export { portalOrderRoutes } from './portal-orders.routes.js';
export { portalPageRoutes } from './portal.page.routes.js';
export { studioDeveloperRoutes } from './studio-developers.routes.js';
export { registerStudioDeveloperCommands } from './studio-developers.cli.js';
export type { StudioDeveloperService } from './studio-developers.service.js';
export type { PortalSignInService } from './portal-sign-in.service.js';

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

/** The studio portal's accounts and sign-in (docs/portal.md), on the one identity model. */
export function createPortal(
  identity: Identity,
  requireApp: (appId: number) => Promise<unknown>,
): { studioDevelopers: StudioDeveloperService; portalSignIn: PortalSignInService } {
  const { people, invitations, door } = realmOf(identity, {
    terms: {
      realm: 'studio',
      noun: 'studio developer',
      events: {
        created: 'studio-developer-created',
        disabled: 'studio-developer-disabled',
        enabled: 'studio-developer-enabled',
      },
    },
    invitations: { page: '/portal', actor: studioActor, title: 'Studio portal' },
    door: PORTAL_DOOR,
  });
  return {
    studioDevelopers: new StudioDeveloperService(people, invitations, requireApp),
    portalSignIn: new PortalSignInService(door),
  };
}
