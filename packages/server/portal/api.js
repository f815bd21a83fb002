// @ts-check
// api.js - the portal's only way to the service: fetch to /portal/v1 with the HttpOnly portal session cookie
// (path /portal/v1, SameSite=Strict) and the session's CSRF token on every change.

import { csrfHeaders, queryString, sessionClient, tabSession } from '/console/kit/fetch-json.js';

export { queryString };

const stored = tabSession('portal', ['csrf', 'name', 'refundAppIds']);

export const session = {
  csrf: () => stored.get('csrf'),
  name: () => stored.get('name'),
  signedIn: () => Boolean(stored.get('csrf')),
  /** The apps whose web orders the developer may refund (its grant; the API decides anyway). */
  refundAppIds: () => JSON.parse(stored.get('refundAppIds') ?? '[]'),
  signIn({ name, csrfToken, refundAppIds = [] }) {
    stored.set({ csrf: csrfToken, name, refundAppIds: JSON.stringify(refundAppIds) });
  },
  signOut: () => stored.clear(),
};

/**
 * Calls the portal API; answers the parsed JSON body or throws an ApiError. A 401 outside a sign-in ends the tab's
 * session and tells the onUnauthorized listeners: the page goes back to the sign-in form.
 */
export const { api, onUnauthorized } = sessionClient(
  '/portal/v1',
  (method) => csrfHeaders(session.csrf(), method),
  () => session.signOut(),
);
