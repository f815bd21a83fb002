// @ts-check
// api.js - the page's only way to the service: fetch to /pay/api/{clientId} with the session cookie and, on POST,
// the session's CSRF token.

// The answers the page reads, as the service's schemas give them (page-types, generated from the OpenAPI document).
/** @typedef {import('page-types').PayData<'/pay/api/{clientId}/context'>} Context */
/** @typedef {import('page-types').PayData<'/pay/api/{clientId}/orders', 'post'>} Placed */
/** @typedef {Placed['order']} Order */
/** @typedef {import('page-types').PayData<'/pay/api/{clientId}/quote', 'post'>} Quote */
/** @typedef {import('page-types').PayData<'/pay/api/{clientId}/roles'>['roles']} Roles */

/** An error answered by the page API (the 2.3 envelope {code,msg,detail,data}) or a network failure. */
export class ApiError extends Error {
  constructor(status, code, msg, data) {
    super(`${code}: ${msg}`);
    this.status = status;
    this.code = code;
    this.msg = msg;
    this.data = data;
  }
}

export const clientId = decodeURIComponent(location.pathname.split('/')[2] || '');
let csrf = '';
export const setCsrf = (token) => {
  csrf = token;
};

/** Calls the page API; answers `data` of the success envelope or throws an ApiError. */
export async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  let res;
  try {
    res = await fetch(`/pay/api/${encodeURIComponent(clientId)}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 0, 'network', null);
  }
  let json = null;
  try {
    json = await res.json();
  } catch {
    // not JSON: handled below
  }
  if (!res.ok || !json || json.code !== 200)
    throw new ApiError(res.status, json?.code ?? res.status, json?.msg ?? res.statusText, json?.data ?? null);
  return json.data;
}
