import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildMacAuthorization } from '@game-platform/sdk';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { TestService } from '../service.js';

/** Helpers for the accounts tests (real HTTP against a test service). */

export interface Login {
  kid: string;
  macKey: string;
  userId: string;
  userCode: string;
  isNew: boolean;
  expiresAt: string;
  loginType: number;
  openId: string;
}

export async function post(svc: TestService, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await svc.fetch(path, {
    method: 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function guestLogin(
  svc: TestService,
  clientId: string,
  deviceId: string = crypto.randomUUID(),
  headers: Record<string, string> = {},
): Promise<Login> {
  const res = await post(svc, '/api/account/v1/client/login/guest', { clientId, deviceId }, headers);
  if (res.status !== 200) throw new Error(`guest login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function mintSandbox(svc: TestService, identity: Record<string, unknown>): Promise<string> {
  const res = await svc.admin('POST', '/sandbox/login-assertions', identity);
  if (res.status !== 201) throw new Error(`mint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.assertion;
}

export async function providerLogin(
  svc: TestService,
  clientId: string,
  provider: string,
  credential: string,
  headers: Record<string, string> = {},
) {
  return post(svc, '/api/account/v1/client/login', { clientId, provider, credential }, headers);
}

export async function sandboxLogin(
  svc: TestService,
  clientId: string,
  identity: Record<string, unknown>,
): Promise<Login> {
  const res = await providerLogin(svc, clientId, 'sandbox', await mintSandbox(svc, identity));
  if (res.status !== 200) throw new Error(`sandbox login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A request signed with the MAC token of 5.2 (host 127.0.0.1, port 443 as PUBLIC_PORT defaults). */
export async function macRequest(
  svc: TestService,
  method: 'GET' | 'POST',
  uri: string,
  token: { kid: string; macKey: string },
  opts: { ts?: number; nonce?: string; body?: unknown; authorization?: string; headers?: Record<string, string> } = {},
) {
  const authorization =
    opts.authorization ??
    buildMacAuthorization({
      kid: token.kid,
      macKey: token.macKey,
      method,
      uri,
      host: '127.0.0.1',
      port: 443,
      ...(opts.ts !== undefined ? { ts: opts.ts } : {}),
      ...(opts.nonce !== undefined ? { nonce: opts.nonce } : {}),
    });
  const res = await svc.fetch(uri, {
    method,
    headers: {
      authorization,
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export const profileUri = (clientId: string) => `/api/account/v1/user/profile?clientId=${encodeURIComponent(clientId)}`;

export async function profile(
  svc: TestService,
  clientId: string,
  token: { kid: string; macKey: string },
  opts: Parameters<typeof macRequest>[4] = {},
) {
  return macRequest(svc, 'GET', profileUri(clientId), token, opts);
}

/** A provider's signing keys served as a JWKS on loopback, and ID tokens signed with them. */
export interface FakeIdp {
  jwksUrl: string;
  sign(
    claims: JWTPayload,
    opts?: {
      issuer?: string;
      audience?: string;
      expiresIn?: string | number;
      alg?: 'RS256' | 'ES256';
      foreignKey?: boolean;
    },
  ): Promise<string>;
  /** Answers requests with 500 while true. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startFakeIdp(defaults: { issuer: string; audience: string }): Promise<FakeIdp> {
  const rs = await generateKeyPair('RS256');
  const es = await generateKeyPair('ES256');
  const foreign = await generateKeyPair('RS256');
  const keys = [
    { ...(await exportJWK(rs.publicKey)), kid: 'rs-1', alg: 'RS256', use: 'sig' },
    { ...(await exportJWK(es.publicKey)), kid: 'es-1', alg: 'ES256', use: 'sig' },
  ];
  const idp: FakeIdp = {
    jwksUrl: '',
    failing: false,
    async sign(claims, o = {}) {
      const alg = o.alg ?? 'RS256';
      const key = o.foreignKey ? foreign.privateKey : alg === 'RS256' ? rs.privateKey : es.privateKey;
      return new SignJWT(claims)
        .setProtectedHeader({ alg, kid: alg === 'RS256' ? 'rs-1' : 'es-1' })
        .setIssuer(o.issuer ?? defaults.issuer)
        .setAudience(o.audience ?? defaults.audience)
        .setIssuedAt()
        .setExpirationTime(o.expiresIn ?? '10m')
        .sign(key);
    },
    close: async () => {},
  };
  const server = http.createServer((_req, res) => {
    if (idp.failing) return void res.writeHead(500).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  idp.jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`;
  idp.close = () => new Promise((resolve) => server.close(() => resolve()));
  return idp;
}

/** Number of rows of a table. */
export async function count(
  svc: TestService,
  table: 'users' | 'login_methods' | 'tokens' | 'user_apps' | 'outbox' | 'user_bans' | 'nonces',
): Promise<number> {
  const row = await svc.services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
