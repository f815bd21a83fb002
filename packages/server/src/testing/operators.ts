import crypto from 'node:crypto';
import { totpCode } from '../identity/credentials.js';
import type { TestService } from './service.js';

export interface TestOperator {
  name: string;
  role: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
}

/**
 * Creates an operator through the admin API with the break-glass token (docs/operators.md): the first admin is
 * answered its credentials; any other is invited, and the invitation completed as its invitee would.
 */
export async function createOperator(svc: TestService, name: string, role: string): Promise<TestOperator> {
  const res = await svc.admin('POST', '/operators', { name, role });
  if (res.status !== 201) throw new Error(`createOperator: ${res.status} ${JSON.stringify(res.body)}`);
  if (res.body.password)
    return {
      name,
      role,
      password: res.body.password,
      totpSecret: res.body.secondFactor.totpSecret,
      recoveryCodes: res.body.secondFactor.recoveryCodes,
    };
  return { name, role, ...(await completeInvitation(svc, '/admin/v1', res.body.link)) };
}

/** The token of an invitation link (after `#/invitation/`). */
export const tokenOf = (link: string) => link.split('#/invitation/')[1]!;

/** A JSON POST without credentials (the invitee's side of an invitation). */
export async function postJson(svc: TestService, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await svc.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Completes an invitation `link` over HTTP as its invitee (`base`: '/admin/v1' or '/portal/v1'): a password of its
 * own and a TOTP confirmed with the code of the previous time step (so a sign-in right after has a fresh one).
 */
export async function completeInvitation(
  svc: TestService,
  base: string,
  link: string,
  password = `pw-${crypto.randomBytes(9).toString('base64url')}`,
): Promise<{ password: string; totpSecret: string; recoveryCodes: string[] }> {
  const token = tokenOf(link);
  const totp = await postJson(svc, `${base}/invitation/totp`, { token });
  if (totp.status !== 200) throw new Error(`invitation/totp: ${totp.status} ${JSON.stringify(totp.body)}`);
  const accept = () =>
    postJson(svc, `${base}/invitation/accept`, {
      token,
      password,
      totp: totpCode(totp.body.totpSecret, svc.now() - 30_000),
    });
  let accepted = await accept();
  // The code of the previous step is two steps old if a step began between making it and the service's check (a
  // slow machine): a wrong code leaves the link unused, so one more try with the code made anew.
  if (accepted.status === 400 && accepted.body?.detail?.startsWith('totp:')) accepted = await accept();
  if (accepted.status !== 200)
    throw new Error(`invitation/accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { password, totpSecret: totp.body.totpSecret, recoveryCodes: accepted.body.recoveryCodes };
}

/** An API token of operator `name` (created first when `role` is given). */
export async function operatorToken(
  svc: TestService,
  name: string,
  role?: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  if (role !== undefined) await createOperator(svc, name, role);
  const res = await svc.admin('POST', '/operator-tokens', { name: `${name} test token`, operator: name, ...body });
  if (res.status !== 201) throw new Error(`operatorToken: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** The TOTP code of `op` at `at` (a time step later than `at - 30 s` gives a fresh one). */
export const codeOf = (op: TestOperator, at = Date.now()) => totpCode(op.totpSecret, at);

/** JSON request to the admin API with `token` (an operator token); `headers` added. */
export async function adminAs(
  svc: TestService,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await svc.fetch(`/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
