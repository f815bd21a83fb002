import { totpCode } from '../identity/credentials.js';
import type { TestService } from './service.js';

export interface TestOperator {
  name: string;
  role: string;
  password: string;
  totpSecret: string;
  recoveryCodes: string[];
}

/** Creates an operator through the admin API with the break-glass token (docs/operators.md, first admin). */
export async function createOperator(svc: TestService, name: string, role: string): Promise<TestOperator> {
  const res = await svc.admin('POST', '/operators', { name, role });
  if (res.status !== 201) throw new Error(`createOperator: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    name,
    role,
    password: res.body.password,
    totpSecret: res.body.secondFactor.totpSecret,
    recoveryCodes: res.body.secondFactor.recoveryCodes,
  };
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
