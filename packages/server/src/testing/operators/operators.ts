import { codeOf, type TestOperator } from '../operators.js';
import type { TestService } from '../service.js';

/** A console sign-in over HTTP: the answer, and the session cookie's value and attributes when one was set. */
export async function signIn(
  svc: TestService,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; cookie: string | undefined; setCookie: string | null; headers: Headers }> {
  const res = await svc.fetch('/admin/v1/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const setCookie = res.headers.get('set-cookie');
  const cookie = setCookie ? /^gp_operator_session=([^;]*)/.exec(setCookie)?.[1] : undefined;
  return { status: res.status, body: await res.json(), cookie, setCookie, headers: res.headers };
}

/** Signs `op` in with its password and the TOTP code at `at`; throws unless it worked. */
export async function sessionOf(svc: TestService, op: TestOperator, at: number) {
  const r = await signIn(svc, { name: op.name, password: op.password, totp: codeOf(op, at) });
  if (r.status !== 200 || !r.cookie) throw new Error(`sign-in of ${op.name}: ${r.status} ${JSON.stringify(r.body)}`);
  return { cookie: r.cookie, csrfToken: r.body.csrfToken as string };
}

/** An admin API request with a session cookie (and the CSRF header when given). */
export async function withCookie(
  svc: TestService,
  cookie: string,
  method: string,
  path: string,
  opts: { body?: unknown; csrf?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await svc.fetch(`/admin/v1${path}`, {
    method,
    headers: {
      cookie: `gp_operator_session=${cookie}`,
      ...(opts.csrf !== undefined ? { 'x-csrf-token': opts.csrf } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** The audit trail's entries for `event`, newest first (read with the break-glass token). */
export async function auditEvents(svc: TestService, event: string): Promise<any[]> {
  const res = await svc.admin('GET', '/admin-actions?limit=200');
  return res.body.actions.filter((a: any) => a.event === event);
}
