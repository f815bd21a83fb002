// api.js - the console's only way to the service: fetch to /admin/v1 with the admin bearer token kept in sessionStorage.

const TOKEN_KEY = 'console.adminToken';
const MODERATOR_KEY = 'console.moderator';

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
  moderator: () => sessionStorage.getItem(MODERATOR_KEY) || 'console',
  signIn(token, moderator) {
    sessionStorage.setItem(TOKEN_KEY, token);
    if (moderator) sessionStorage.setItem(MODERATOR_KEY, moderator);
    else sessionStorage.removeItem(MODERATOR_KEY);
  },
  signOut() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(MODERATOR_KEY);
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

/** Calls the admin API; answers the parsed JSON body or throws an ApiError. */
export async function api(method, path, { query, body } = {}) {
  // X-Operator names who acts in the admin API's audit trail; percent-encoded, since a header value is ASCII.
  const headers = {
    authorization: `Bearer ${session.token() ?? ''}`,
    'x-operator': encodeURIComponent(session.moderator()),
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(`/admin/v1${path}${queryString(query)}`, {
      method,
      headers,
      credentials: 'omit',
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
  if (res.status === 401) {
    session.signOut();
    for (const fn of unauthorizedListeners) fn(error);
  }
  throw error;
}
