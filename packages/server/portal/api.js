// @ts-check
// api.js - the portal's only way to the service: fetch to /portal/v1 with the HttpOnly portal session cookie
// (path /portal/v1, SameSite=Strict) and the session's CSRF token on every change.

import { fetchJson, queryString } from '/console/kit/fetch-json.js';

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

const unauthorizedListeners = new Set();
/** Told when the API says the session has ended (401): the page goes back to the sign-in form. */
export function onUnauthorized(fn) {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/** Calls the portal API; answers the parsed JSON body or throws an ApiError.
 * @param {string} method
 * @param {string} path under the API's prefix
 * @param {import('/console/kit/fetch-json.js').ApiOptions} [opts]
 * @returns {Promise<any>} the answer's JSON: the page names its shape (page-types)
 */
export async function api(method, path, { query, body, signingIn = false } = {}) {
  const csrf = session.csrf();
  /** @type {Record<string, string>} */
  const headers = !signingIn && csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {};
  try {
    return await fetchJson(`/portal/v1${path}${queryString(query)}`, method, headers, body);
  } catch (caught) {
    const error = /** @type {import('/console/kit/fetch-json.js').ApiError & { viaToken?: boolean }} */ (caught);
    if (error.status === 401 && !signingIn) {
      session.signOut();
      for (const fn of unauthorizedListeners) fn(error);
    }
    throw error;
  }
}
