import type { CallerApp } from '../auth/caller.js';
import type { Md5RouteOptions } from '../auth/md5.js';
import { AppError } from '../errors/app-error.js';

/**
 * The md5 options (5.1) of a game server call that names its app by `appId` in its JSON body (4.6, the store
 * consumption report): an unknown or inactive app is UNKNOWN_CLIENT, before the shape checks.
 */
export function appIdBodyMd5(
  resolveByAppId: (appId: number) => Promise<(CallerApp & { active: boolean }) | null>,
  recordNonce: Md5RouteOptions['recordNonce'],
): Md5RouteOptions {
  return {
    from: 'body',
    clientId: (body) => body.appId,
    resolveApp: async (appId) => {
      const app = await resolveByAppId(appId as number);
      if (!app || !app.active) throw new AppError('UNKNOWN_CLIENT', `appId ${String(appId)} is not a known active app`);
      return app;
    },
    recordNonce,
  };
}
