// @ts-check
// api.js - the portal's only way to the service: fetch to /portal/v1 with the HttpOnly portal session cookie
// (path /portal/v1, SameSite=Strict) and the session's CSRF token on every change.

import { csrfHeaders, queryString, sessionClient } from '/console/kit/fetch-json.js';

export { queryString };

const CSRF_KEY = 'portal.csrf';
const NAME_KEY = 'portal.name';
const REFUNDS_KEY = 'portal.refundAppIds';

export const session = {
  csrf: () => sessionStorage.getItem(CSRF_KEY),
  name: () => sessionStorage.getItem(NAME_KEY),
  signedIn: () => Boolean(sessionStorage.getItem(CSRF_KEY)),
  /** The apps whose web orders the developer may refund (its grant; the API decides anyway). */
  refundAppIds: () => JSON.parse(sessionStorage.getItem(REFUNDS_KEY) ?? '[]'),
  signIn({ name, csrfToken, refundAppIds = [] }) {
    sessionStorage.setItem(CSRF_KEY, csrfToken);
    sessionStorage.setItem(NAME_KEY, name);
    sessionStorage.setItem(REFUNDS_KEY, JSON.stringify(refundAppIds));
  },
  signOut() {
    sessionStorage.removeItem(CSRF_KEY);
    sessionStorage.removeItem(NAME_KEY);
    sessionStorage.removeItem(REFUNDS_KEY);
  },
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
