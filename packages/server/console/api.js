// api.js - the console's only way to the service: fetch to /admin/v1, signed in either as an operator account (the
// HttpOnly session cookie, plus the session's CSRF token on every change) or with a bearer token (the break-glass
// ADMIN_TOKEN or an operator API token) kept in sessionStorage.

const TOKEN_KEY = 'console.adminToken';
const MODERATOR_KEY = 'console.moderator';
const CSRF_KEY = 'console.csrf';
const ROLE_KEY = 'console.role';

/** An error answered by the admin API (the 2.3 envelope {code,msg,detail,data}) or a network failure. */
export class ApiError extends Error {
  constructor(status, code, msg, detail) {
    super(`${code}: ${msg}${detail ? ` (${detail})` : ''}`);
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.detail = detail;
  }
}

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  /** The CSRF token of an account's session (the cookie itself is out of reach of scripts). */
  csrf: () => sessionStorage.getItem(CSRF_KEY),
  role: () => sessionStorage.getItem(ROLE_KEY),
  signedIn: () => Boolean(sessionStorage.getItem(TOKEN_KEY) || sessionStorage.getItem(CSRF_KEY)),
  moderator: () => sessionStorage.getItem(MODERATOR_KEY) || 'console',
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

/** Listeners told when the API refuses the token (401): the app goes back to the sign-in screen. */
const unauthorizedListeners = new Set();
export function onUnauthorized(fn) {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

/** The query string of the defined, non-empty entries of `query`. */
export function queryString(query = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The headers that sign a request in: the bearer token, or (an account's session) the CSRF token on a change. */
function authHeaders(method) {
  const token = session.token();
  // With a token, X-Operator notes the name given at sign-in (percent-encoded: a header value is ASCII); the audit
  // trail records it as a note only. An account's session is recorded under the account's name.
  if (token) return { authorization: `Bearer ${token}`, 'x-operator': encodeURIComponent(session.moderator()) };
  const csrf = session.csrf();
  return csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {};
}

/** Calls the admin API; answers the parsed JSON body or throws an ApiError. */
export async function api(method, path, { query, body, signingIn = false } = {}) {
  const headers = signingIn ? {} : authHeaders(method);
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(`/admin/v1${path}${queryString(query)}`, {
      method,
      headers,
      // The session cookie (HttpOnly, SameSite=Strict, path /admin/v1) goes only to this origin.
      credentials: 'same-origin',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    throw new ApiError(0, 'NETWORK', 'the service could not be reached', String((err && err.message) || err));
  }
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.ok) return json;
  const e = json && typeof json === 'object' ? json : {};
  const error = new ApiError(res.status, e.code ?? res.status, e.msg ?? res.statusText ?? 'error', e.detail ?? '');
  if (res.status === 401 && !signingIn) {
    error.viaToken = session.token() !== null;
    session.signOut();
    for (const fn of unauthorizedListeners) fn(error);
  }
  throw error;
}
