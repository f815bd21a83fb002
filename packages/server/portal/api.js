// api.js - the portal's only way to the service: fetch to /portal/v1 with the HttpOnly portal session cookie
// (path /portal/v1, SameSite=Strict) and the session's CSRF token on every change.

const CSRF_KEY = 'portal.csrf';
const NAME_KEY = 'portal.name';

/** An error answered by the portal API (the {code,msg,detail} envelope) or a network failure. */
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
  csrf: () => sessionStorage.getItem(CSRF_KEY),
  name: () => sessionStorage.getItem(NAME_KEY),
  signedIn: () => Boolean(sessionStorage.getItem(CSRF_KEY)),
  signIn({ name, csrfToken }) {
    sessionStorage.setItem(CSRF_KEY, csrfToken);
    sessionStorage.setItem(NAME_KEY, name);
  },
  signOut() {
    sessionStorage.removeItem(CSRF_KEY);
    sessionStorage.removeItem(NAME_KEY);
  },
};

const unauthorizedListeners = new Set();
/** Told when the API says the session has ended (401): the page goes back to the sign-in form. */
export function onUnauthorized(fn) {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

export function queryString(query = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Calls the portal API; answers the parsed JSON body or throws an ApiError. */
export async function api(method, path, { query, body, signingIn = false } = {}) {
  const headers = {};
  const csrf = session.csrf();
  if (!signingIn && csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(`/portal/v1${path}${queryString(query)}`, {
      method,
      headers,
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
    session.signOut();
    for (const fn of unauthorizedListeners) fn(error);
  }
  throw error;
}
