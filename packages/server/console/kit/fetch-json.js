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
