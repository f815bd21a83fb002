// @ts-check
// api.js - the console's only way to the service: fetch to /admin/v1, signed in either as an operator account (the
// HttpOnly session cookie, plus the session's CSRF token on every change) or with a bearer token (the break-glass
// ADMIN_TOKEN or an operator API token) kept in sessionStorage.

import { csrfHeaders, sessionClient } from '/console/kit/fetch-json.js';

const TOKEN_KEY = 'console.adminToken';
const MODERATOR_KEY = 'console.moderator';
const CSRF_KEY = 'console.csrf';
const ROLE_KEY = 'console.role';

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  /** The CSRF token of an account's session (the cookie itself is out of reach of scripts). */
  csrf: () => sessionStorage.getItem(CSRF_KEY),
  role: () => sessionStorage.getItem(ROLE_KEY),
  signedIn: () => Boolean(sessionStorage.getItem(TOKEN_KEY) || sessionStorage.getItem(CSRF_KEY)),
  moderator: () => sessionStorage.getItem(MODERATOR_KEY) || 'console',
  /** The name given at a token sign-in (or the account's name), or '' when none was given. */
  givenName: () => sessionStorage.getItem(MODERATOR_KEY) ?? '',
  signIn(token, moderator) {
    sessionStorage.setItem(TOKEN_KEY, token);
    if (moderator) sessionStorage.setItem(MODERATOR_KEY, moderator);
    else sessionStorage.removeItem(MODERATOR_KEY);
  },
  /** After POST /admin/v1/session: the operator's name, role and the session's CSRF token. */
  signInAccount({ name, role, csrfToken }) {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.setItem(CSRF_KEY, csrfToken);
    sessionStorage.setItem(ROLE_KEY, role);
    sessionStorage.setItem(MODERATOR_KEY, name);
  },
  signOut() {
    for (const key of [TOKEN_KEY, MODERATOR_KEY, CSRF_KEY, ROLE_KEY]) sessionStorage.removeItem(key);
  },
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
