/**
 * A stand-in for Google on 127.0.0.1, for tests only, one HTTP server speaking:
 * - the OAuth 2.0 token endpoint (`POST /token`, JWT-bearer grant): the assertion's RS256 signature is checked with
 *   the test service account's public key, its issuer, audience (Google's token URL) and scope;
 * - `GET /oauth2/v1/certs`: the PEM certificates of the key that signs Pub/Sub push OIDC tokens, as Google serves them;
 * - the Android Publisher API v3: purchases.products.get and :acknowledge, purchases.voidedpurchases.list, answering
 *   only a bearer access token it issued, with purchases and voided purchases the test controls.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { generateKeyPairSync, randomBytes, randomUUID, webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import type { GoogleServiceAccountKey } from '../app-stores/google/auth.js';

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

export const TEST_PACKAGE = 'com.example.game';

/** A service account JSON key as the Cloud console hands it out, with a fresh RSA key. */
export function makeServiceAccount(name = 'play-api'): GoogleServiceAccountKey & Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    type: 'service_account',
    project_id: 'test-project',
    private_key_id: randomBytes(20).toString('hex'),
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    client_email: `${name}@test-project.iam.gserviceaccount.com`,
    client_id: '100000000000000000001',
    token_uri: GOOGLE_TOKEN_URL,
  };
}

/** ProductPurchase as purchases.products.get returns it. */
export interface TestProductPurchase {
  kind?: string;
  purchaseTimeMillis: string;
  purchaseState: number;
  consumptionState: number;
  orderId?: string;
  purchaseType?: number;
  acknowledgementState: number;
  productId?: string;
  quantity?: number;
  regionCode?: string;
  obfuscatedExternalAccountId?: string;
  developerPayload?: string;
}

export interface VoidedPurchase {
  kind?: string;
  purchaseToken: string;
  purchaseTimeMillis: string;
  voidedTimeMillis: string;
  orderId: string;
  voidedSource: number;
  voidedReason: number;
  voidedQuantity?: number;
}

export interface GoogleServer {
  url: string;
  tokenUrl: string;
  certsUrl: string;
  /** `${packageName}/${productId}/${token}` -> purchase. */
  purchases: Map<string, TestProductPurchase>;
  voided: VoidedPurchase[];
  pageSize: number;
  /** Every request: method, path, and whether it carried an access token this server issued. */
  requests: { method: string; path: string; authorized: boolean; query: Record<string, string> }[];
  tokensIssued: number;
  /** An OIDC token as Pub/Sub signs it for a push subscription (claims override the defaults). */
  pushToken(
    claims: JWTPayload & { email?: string; email_verified?: boolean },
    signer?: 'google' | 'other',
  ): Promise<string>;
  close(): Promise<void>;
}

export function purchase(over: Partial<TestProductPurchase> = {}): TestProductPurchase {
  return {
    kind: 'androidpublisher#productPurchase',
    purchaseTimeMillis: String(Date.now() - 60_000),
    purchaseState: 0,
    consumptionState: 0,
    orderId: `GPA.3374-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e4)}-${Math.floor(Math.random() * 1e5)}`,
    purchaseType: undefined,
    acknowledgementState: 0,
    quantity: 1,
    regionCode: 'DE',
    ...over,
  };
}

/** A Pub/Sub push body around a developer notification. */
export function pushBody(notification: object, messageId = String(Math.floor(Math.random() * 1e16))): object {
  return {
    message: {
      data: Buffer.from(JSON.stringify(notification)).toString('base64'),
      messageId,
      message_id: messageId,
      publishTime: new Date().toISOString(),
      attributes: {},
    },
    subscription: 'projects/test-project/subscriptions/play-rtdn',
  };
}

async function signingCert(name: string): Promise<{ kid: string; pem: string; key: webcrypto.CryptoKey }> {
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 14 * 86_400_000),
    keys,
    signingAlgorithm: RSA,
  });
  return { kid: randomBytes(20).toString('hex'), pem: cert.toString('pem'), key: keys.privateKey };
}

export async function startGoogle(account: GoogleServiceAccountKey): Promise<GoogleServer> {
  const { createPublicKey } = await import('node:crypto');
  const accountPublicKey = createPublicKey(account.private_key);
  const google = await signingCert('accounts.google.com');
  const other = await signingCert('not-google');
  const accessTokens = new Set<string>();
  let url = '';

  const state = {
    purchases: new Map<string, TestProductPurchase>(),
    voided: [] as VoidedPurchase[],
    pageSize: 100,
    requests: [] as GoogleServer['requests'],
    tokensIssued: 0,
  };

  async function token(form: URLSearchParams): Promise<[number, unknown]> {
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return [400, { error: 'unsupported_grant_type' }];
    try {
      const { payload } = await jwtVerify(form.get('assertion') ?? '', accountPublicKey, {
        algorithms: ['RS256'],
        issuer: account.client_email,
        audience: GOOGLE_TOKEN_URL,
        maxTokenAge: '1h',
      });
      if (
        !String(payload.scope ?? '')
          .split(' ')
          .includes('https://www.googleapis.com/auth/androidpublisher')
      )
        return [400, { error: 'invalid_scope', error_description: 'scope missing' }];
    } catch (e) {
      return [400, { error: 'invalid_grant', error_description: `Invalid JWT Signature. (${String(e)})` }];
    }
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    accessTokens.add(accessToken);
    state.tokensIssued++;
    return [200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' }];
  }

  function publisher(method: string, path: string, query: URLSearchParams, body: string): [number, unknown] {
    const base = '/androidpublisher/v3/applications/';
    if (!path.startsWith(base)) return [404, { error: { code: 404, message: 'Not found' } }];
    const rest = path.slice(base.length);
    const product = /^([^/]+)\/purchases\/products\/([^/]+)\/tokens\/([^/:]+)(:acknowledge)?$/.exec(rest);
    if (product) {
      const [, pkg, productId, purchaseToken, ack] = product.map((p) => (p ? decodeURIComponent(p) : p));
      const found = state.purchases.get(`${pkg}/${productId}/${purchaseToken}`);
      if (!found)
        return [404, { error: { code: 404, message: 'The purchase token does not exist.', status: 'NOT_FOUND' } }];
      if (ack && method === 'POST') {
        if (found.purchaseState !== 0)
          return [400, { error: { code: 400, message: 'The purchase is not in a valid state.' } }];
        found.acknowledgementState = 1;
        const payload = body ? (JSON.parse(body) as { developerPayload?: string }).developerPayload : undefined;
        if (payload) found.developerPayload = payload;
        return [200, {}];
      }
      if (!ack && method === 'GET') return [200, { ...found, productId, purchaseToken: undefined }];
    }
    const voided = /^([^/]+)\/purchases\/voidedpurchases$/.exec(rest);
    if (voided && method === 'GET') {
      const startTime = Number(query.get('startTime') ?? '0');
      const all = state.voided.filter((v) => Number(v.voidedTimeMillis) >= startTime);
      const from = Number(query.get('token') ?? '0');
      const size = Math.min(Number(query.get('maxResults') ?? state.pageSize), state.pageSize);
      const page = all.slice(from, from + size);
      const next = from + page.length;
      return [
        200,
        {
          pageInfo: { totalResults: all.length, resultPerPage: size, startIndex: from },
          ...(next < all.length ? { tokenPagination: { nextPageToken: String(next) } } : {}),
          voidedPurchases: page,
        },
      ];
    }
    return [404, { error: { code: 404, message: 'Not found' } }];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const u = new URL(req.url ?? '/', 'http://127.0.0.1');
        const body = Buffer.concat(chunks).toString('utf8');
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        const authorized = bearer !== undefined && accessTokens.has(bearer);
        state.requests.push({
          method: req.method ?? '',
          path: u.pathname,
          authorized,
          query: Object.fromEntries(u.searchParams),
        });
        let status: number;
        let json: unknown;
        const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
        if (u.pathname === '/token' && req.method === 'POST') [status, json] = await token(new URLSearchParams(body));
        else if (u.pathname === '/oauth2/v1/certs' && req.method === 'GET') {
          [status, json] = [200, { [google.kid]: google.pem }];
          headers['cache-control'] = 'public, max-age=300';
        } else if (!authorized)
          [status, json] = [
            401,
            {
              error: {
                code: 401,
                message: 'Request had invalid authentication credentials.',
                status: 'UNAUTHENTICATED',
              },
            },
          ];
        else [status, json] = publisher(req.method ?? '', u.pathname, u.searchParams, body);
        res.writeHead(status, headers).end(JSON.stringify(json));
      })().catch((e: unknown) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return Object.assign(state, {
    url,
    tokenUrl: `${url}/token`,
    certsUrl: `${url}/oauth2/v1/certs`,
    async pushToken(
      claims: JWTPayload & { email?: string; email_verified?: boolean },
      signer: 'google' | 'other' = 'google',
    ) {
      const s = signer === 'google' ? google : other;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: 'https://accounts.google.com',
        sub: '100000000000000000002',
        azp: '100000000000000000002',
        iat: now,
        exp: now + 3600,
        email_verified: true,
        jti: randomUUID(),
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: google.kid, typ: 'JWT' })
        .sign(s.key);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
