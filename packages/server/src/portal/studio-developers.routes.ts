import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config/config.js';
import type { StudioDeveloperService } from './studio-developers.service.js';
import { registerAdminAccountRoutes } from '../operators/admin-accounts.routes.js';
import { DeveloperCreateBody, DeveloperCreated, DeveloperPatchBody, StudioDeveloper } from './portal.schemas.js';

/** Operators invite and manage studio developer accounts, mounted under /admin/v1 (docs/portal.md). */
export function studioDeveloperRoutes(services: {
  config: Pick<Config, 'PUBLIC_ORIGIN'>;
  studioDevelopers: StudioDeveloperService;
}): FastifyPluginAsyncTypebox {
  return async (app) =>
    registerAdminAccountRoutes(app, services.config, {
      path: '/studio-developers',
      listKey: 'developers',
      invitationsPath: '/studio-developer-invitations',
      what: 'studio developer',
      accounts: services.studioDevelopers,
      schemas: {
        view: StudioDeveloper,
        created: DeveloperCreated,
        createBody: DeveloperCreateBody,
        patchBody: DeveloperPatchBody,
      },
      summaries: {
        list: 'List studio developer accounts (portal) with their apps',
        create:
          'Invite a studio developer for some apps: answers the invitation and its link (mailed instead with SMTP_URL and an email)',
        get: 'Show a studio developer',
        patch: "Change a studio developer's apps or disable it (taking apps away or disabling ends its sessions)",
      },
    });
}
