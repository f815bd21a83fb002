import { totpCode } from '../../identity/credentials.js';
import type { TestService } from '../service.js';
import { completeInvitation } from '../operators.js';

/** A studio developer invited through the admin API with the break-glass token (the invitation completed), and what it signs in with. */
export interface TestDeveloper {
  name: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
}

export async function createDeveloper(svc: TestService, name: string, appIds: number[]): Promise<TestDeveloper> {
  const res = await svc.admin('POST', '/studio-developers', { name, appIds });
  if (res.status !== 201) throw new Error(`createDeveloper: ${res.status} ${JSON.stringify(res.body)}`);
  return { name, ...(await completeInvitation(svc, '/portal/v1', res.body.link)) };
}

/** A portal sign-in over HTTP: the answer, and the portal cookie's value when one was set. */
export async function portalSignIn(svc: TestService, body: Record<string, unknown>) {
  const res = await svc.fetch('/portal/v1/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const setCookie = res.headers.get('set-cookie');
  const cookie = setCookie ? /^gp_studio_session=([^;]*)/.exec(setCookie)?.[1] : undefined;
  return { status: res.status, body: (await res.json()) as any, cookie, setCookie };
}

export interface PortalSession {
  cookie: string;
  csrfToken: string;
}

/**
 * Signs `dev` in with a recovery code (each good once, so several sign-ins in one test need no clock), or with the
 * TOTP code of `at` when given.
 */
export async function portalSessionOf(svc: TestService, dev: TestDeveloper, at?: number): Promise<PortalSession> {
  const factor =
    at === undefined ? { recoveryCode: dev.recoveryCodes.shift() } : { totp: totpCode(dev.totpSecret, at) };
  const r = await portalSignIn(svc, { name: dev.name, password: dev.password, ...factor });
  if (r.status !== 200 || !r.cookie)
    throw new Error(`portal sign-in of ${dev.name}: ${r.status} ${JSON.stringify(r.body)}`);
  return { cookie: r.cookie, csrfToken: r.body.csrfToken };
}

/** A portal API request with a session (the CSRF header unless `csrf: false`). */
export async function portalAs(
  svc: TestService,
  s: PortalSession | null,
  method: string,
  path: string,
  body?: unknown,
  opts: { csrf?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await svc.fetch(`/portal/v1${path}`, {
    method,
    headers: {
      ...(s ? { cookie: `gp_studio_session=${s.cookie}` } : {}),
      ...(s && opts.csrf !== false ? { 'x-csrf-token': s.csrfToken } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** The portal routes of the OpenAPI document, as `METHOD /portal/v1/...:param`. */
export async function portalRoutesOf(svc: TestService): Promise<{ method: string; url: string; op: any }[]> {
  const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
  return Object.entries(doc.paths as Record<string, Record<string, any>>)
    .filter(([p]) => p.startsWith('/portal/v1/'))
    .flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        url: p.replace(/\{(\w+)\}/g, ':$1'),
        op,
      })),
    );
}

/** A body each portal route accepts (so a refusal is about who asks, never about the body). */
/** A query string that a portal route's schema accepts, for a route that requires one (`?...` or ''). */
export function validQuery(url: string): string {
  return url.endsWith('/apps/:appId/orders') ? '?userId=1' : '';
}

export function validBody(method: string, url: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (url.endsWith('/events/resend')) return { eventIds: [1] };
  if (url.endsWith('/events/recover')) return { since: new Date(0).toISOString() };
  if (url.endsWith('/test-events')) return { type: 'payment' };
  if (url.endsWith('/refunds')) return { reason: 'a refund of another studio' };
  if (url.endsWith('/session')) return { name: 'x', password: 'y', totp: '000000' };
  if (method === 'PATCH') return { roleQueryUrl: null };
  return undefined;
}
