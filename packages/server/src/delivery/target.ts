import type { AppRecord } from '../apps/apps.service.js';

/**
 * Where an event goes, looked up at send time so a changed URL takes effect
 * on the next attempt. `callback`: the 4.7 map by the order's serverId, then
 * `default`; `cancellation` and `partner`: the app's own URLs.
 */
export function targetUrl(app: AppRecord, target: string, serverId: string | null): string | null {
  switch (target) {
    case 'callback':
      return (
        (serverId !== null && Object.hasOwn(app.callbackUrls, serverId)
          ? app.callbackUrls[serverId]
          : app.callbackUrls.default) ?? null
      );
    case 'cancellation':
      return app.cancellationCallbackUrl;
    case 'partner':
      return app.partnerUrl;
    default:
      return null;
  }
}
