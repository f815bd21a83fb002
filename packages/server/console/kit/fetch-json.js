// @ts-check
// fetch-json.js - the request the console and the studio portal make to their API: same origin (the HttpOnly session
// cookie goes along), never cached, no referrer, JSON in and out, and every failure as an ApiError.

/**
 * What a call of the console's or the portal's `api(method, path, opts)` takes besides its method and path.
 * @typedef {{ query?: Record<string, unknown>, body?: unknown, signingIn?: boolean }} ApiOptions
 */

/** An error answered by the API (the {code,msg,detail} envelope) or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, code, msg, detail) {
    super(`${code}: ${msg}${detail ? ` (${detail})` : ''}`);
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.detail = detail;
  }
}

/**
 * The query string of the defined, non-empty entries of `query`.
 * @param {Record<string, unknown>} [query]
 */
export function queryString(query = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * Sends `body` (when given) as JSON; answers the parsed answer, or throws an ApiError from its envelope.
 * @param {string} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON: the caller names its shape (page-types)
 */
export async function fetchJson(url, method, headers, body) {
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: body !== undefined ? { ...headers, 'content-type': 'application/json' } : headers,
      credentials: 'same-origin',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (err) {
    throw new ApiError(
      0,
      'NETWORK',
      'the service could not be reached',
      String((err && /** @type {Error} */ (err).message) || err),
    );
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
  throw new ApiError(res.status, e.code ?? res.status, e.msg ?? res.statusText ?? 'error', e.detail ?? '');
}

/**
 * The CSRF header of a session's change (every method but GET), when the tab has the session's token.
 * @param {string | null} csrf
 * @param {string} method
 * @returns {Record<string, string>}
 */
export const csrfHeaders = (csrf, method) => (csrf && method !== 'GET' ? { 'x-csrf-token': csrf } : {});

/**
 * The API client of a page signed in to a session the service may end (the console's, the portal's): api(method,
 * path, opts) calls `prefix + path` with `signIn(method)`'s headers (none while signing in); a 401 outside a sign-in
 * first runs `ended(error)` (the page forgets its session), then tells every listener of onUnauthorized(fn).
 * @param {string} prefix
 * @param {(method: string) => Record<string, string>} signIn
 * @param {(error: ApiError & { viaToken?: boolean }) => void} ended
 */
export function sessionClient(prefix, signIn, ended) {
  /** @type {Set<(error: ApiError) => void>} */
  const listeners = new Set();
  return {
    /**
     * Calls the API; answers the parsed JSON body or throws an ApiError.
     * @param {string} method
     * @param {string} path under the API's prefix
     * @param {ApiOptions} [opts]
     * @returns {Promise<any>} the answer's JSON: the page names its shape (page-types)
     */
    async api(method, path, { query, body, signingIn = false } = {}) {
      try {
        return await fetchJson(`${prefix}${path}${queryString(query)}`, method, signingIn ? {} : signIn(method), body);
      } catch (caught) {
        const error = /** @type {ApiError & { viaToken?: boolean }} */ (caught);
        if (error.status === 401 && !signingIn) {
          ended(error);
          for (const fn of listeners) fn(error);
        }
        throw error;
      }
    },
    /**
     * Registers `fn`, told when the API says the session has ended (401): the page goes back to its sign-in form.
     * @param {(error: ApiError & { viaToken?: boolean }) => void} fn
     */
    onUnauthorized(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/**
 * The tab's side of a session (the console's, the portal's): a few strings in sessionStorage under `prefix.` (gone
 * with the tab, out of reach of other tabs), all removed at once when the session ends.
 * @template {string} Key
 * @param {string} prefix
 * @param {Key[]} keys
 */
export function tabSession(prefix, keys) {
  /** @param {Key} key */
  const at = (key) => `${prefix}.${key}`;
  return {
    /** @param {Key} key */
    get: (key) => sessionStorage.getItem(at(key)),
    /**
     * Stores each value given; a null (or undefined) one removes its key.
     * @param {Partial<Record<Key, string | null>>} values
     */
    set(values) {
      for (const [key, value] of /** @type {[Key, string | null | undefined][]} */ (Object.entries(values))) {
        if (value === null || value === undefined) sessionStorage.removeItem(at(key));
        else sessionStorage.setItem(at(key), value);
      }
    },
    clear() {
      for (const key of keys) sessionStorage.removeItem(at(key));
    },
  };
}
