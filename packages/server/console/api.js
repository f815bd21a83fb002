// @ts-check
// api.js - the console's only way to the service: fetch to /admin/v1, signed in either as an operator account (the
// HttpOnly session cookie, plus the session's CSRF token on every change) or with a bearer token (the break-glass
// ADMIN_TOKEN or an operator API token) kept in sessionStorage.

import { csrfHeaders, sessionClient, tabSession } from '/console/kit/fetch-json.js';

// adminToken: the bearer token of a token sign-in; csrf and role: an account's session; moderator: the name.
const stored = tabSession('console', ['adminToken', 'moderator', 'csrf', 'role']);

export const session = {
  token: () => stored.get('adminToken'),
  /** The CSRF token of an account's session (the cookie itself is out of reach of scripts). */
  csrf: () => stored.get('csrf'),
  role: () => stored.get('role'),
  signedIn: () => Boolean(stored.get('adminToken') || stored.get('csrf')),
  moderator: () => stored.get('moderator') || 'console',
  /** The name given at a token sign-in (or the account's name), or '' when none was given. */
  givenName: () => stored.get('moderator') ?? '',
  signIn(token, moderator) {
    stored.set({ adminToken: token, moderator: moderator || null });
  },
  /** After POST /admin/v1/session: the operator's name, role and the session's CSRF token. */
  signInAccount({ name, role, csrfToken }) {
    stored.set({ adminToken: null, csrf: csrfToken, role, moderator: name });
  },
  signOut: () => stored.clear(),
};

/**
 * The headers that sign a request in: the bearer token, or (an account's session) the CSRF token on a change.
 * @param {string} method
 * @returns {Record<string, string>}
 */
function authHeaders(method) {
  const token = session.token();
  // With a token, X-Operator notes the name given at sign-in (percent-encoded: a header value is ASCII); the audit
  // trail records it as a note only. An account's session is recorded under the account's name.
  if (token) return { authorization: `Bearer ${token}`, 'x-operator': encodeURIComponent(session.moderator()) };
  return csrfHeaders(session.csrf(), method);
}

/**
 * Calls the admin API; answers the parsed JSON body or throws an ApiError. A 401 outside a sign-in ends the tab's
 * session (noting whether a token was refused) and tells the onUnauthorized listeners: the app goes back to its
 * sign-in screen. The session cookie (HttpOnly, SameSite=Strict, path /admin/v1) goes only to this origin.
 */
export const { api, onUnauthorized } = sessionClient('/admin/v1', authHeaders, (error) => {
  error.viaToken = session.token() !== null;
  session.signOut();
});
