/**
 * A stand-in for Apple on 127.0.0.1, for tests only: a certificate chain built like Apple's (a root, an
 * intermediate carrying Apple's intermediate marker 1.2.840.113635.100.6.2.1, a leaf carrying the App Store receipt
 * signing marker 1.2.840.113635.100.6.11.1) made with @peculiar/x509, StoreKit 2 transactions and Server
 * Notifications V2 signed with it (ES256, x5c header) by jose, and an App Store Server API (refund lookup,
 * notification history) that checks the bearer JWT the way Apple documents it.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomUUID, webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CompactSign, decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const;
const APPLE_INTERMEDIATE_MARKER = '1.2.840.113635.100.6.2.1';
const APPLE_LEAF_MARKER = '1.2.840.113635.100.6.11.1';
const DER_NULL = new Uint8Array([0x05, 0x00]);

export interface AppleTestChain {
  /** DER, to configure as the verifier's root. */
  root: Buffer;
  intermediate: Buffer;
  leaf: Buffer;
  leafKey: webcrypto.CryptoKey;
}

export interface ChainOptions {
  /** Leave out Apple's marker extensions (a chain any CA could issue). */
  markers?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  name?: string;
}

async function keys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

/** A three-certificate chain shaped like Apple's. */
export async function makeAppleChain(options: ChainOptions = {}): Promise<AppleTestChain> {
  const markers = options.markers ?? true;
  const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = options.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const name = options.name ?? 'Test';
  const [rootKeys, intKeys, leafKeys] = await Promise.all([keys(), keys(), keys()]);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} Root CA - G3, O=${name} Inc., C=US`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} Worldwide Developer Relations CA - G6, O=${name} Inc., C=US`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingKey: rootKeys.privateKey,
    publicKey: intKeys.publicKey,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ...(markers ? [new x509.Extension(APPLE_INTERMEDIATE_MARKER, false, DER_NULL)] : []),
    ],
  });
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '03',
    subject: `CN=Prod ECC Mac App Store and iTunes Store Receipt Signing, O=${name} Inc., C=US`,
    issuer: intermediate.subject,
    notBefore,
    notAfter,
    signingKey: intKeys.privateKey,
    publicKey: leafKeys.publicKey,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ...(markers ? [new x509.Extension(APPLE_LEAF_MARKER, false, DER_NULL)] : []),
    ],
  });
  return {
    root: Buffer.from(root.rawData),
    intermediate: Buffer.from(intermediate.rawData),
    leaf: Buffer.from(leaf.rawData),
    leafKey: leafKeys.privateKey,
  };
}

/** A compact JWS as Apple signs it: ES256, the chain leaf first in `x5c`. */
export async function signApple(chain: AppleTestChain, payload: object, key = chain.leafKey): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({
      alg: 'ES256',
      x5c: [chain.leaf, chain.intermediate, chain.root].map((c) => c.toString('base64')),
    })
    .sign(key);
}

export const TEST_BUNDLE_ID = 'com.example.game';
export const TEST_APP_APPLE_ID = 1234567890;

/** A consumable's JWSTransaction payload, as StoreKit 2 writes it. */
export function transactionPayload(over: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Date.now();
  return {
    transactionId: '2000000812345678',
    originalTransactionId: '2000000812345678',
    bundleId: TEST_BUNDLE_ID,
    productId: 'com.example.game.gems100',
    purchaseDate: now - 60_000,
    originalPurchaseDate: now - 60_000,
    quantity: 1,
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: 'Sandbox',
    transactionReason: 'PURCHASE',
    storefront: 'FRA',
    storefrontId: '143442',
    price: 1990,
    currency: 'EUR',
    ...over,
  };
}

/** A Server Notification V2 payload around a signed transaction. */
export function notificationPayload(
  type: string,
  signedTransactionInfo: string | undefined,
  over: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    notificationType: type,
    notificationUUID: randomUUID(),
    data: {
      appAppleId: TEST_APP_APPLE_ID,
      bundleId: TEST_BUNDLE_ID,
      bundleVersion: '1.0',
      environment: 'Sandbox',
      ...(signedTransactionInfo ? { signedTransactionInfo } : {}),
      ...data,
    },
    version: '2.0',
    signedDate: Date.now(),
    ...over,
  };
}

/** The App Store Connect in-app purchase key the API client signs with (a .p8, PKCS#8 PEM). */
export interface AppleApiKey {
  issuerId: string;
  keyId: string;
  privateKeyPem: string;
  publicKey: webcrypto.CryptoKey;
}

export async function makeApiKey(): Promise<AppleApiKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { issuerId: randomUUID(), keyId: 'TESTKEY123', privateKeyPem: await exportPKCS8(privateKey), publicKey };
}

export interface AppleApiServer {
  url: string;
  /** Signed transactions the refund lookup returns, by any transaction id of the customer. */
  refunds: Map<string, string[]>;
  /** signedPayloads the notification history returns, oldest first. */
  notifications: string[];
  /** Items per page, for both calls. */
  pageSize: number;
  /** Send Consumption Information (v2) bodies received and accepted, by transaction id. */
  consumption: { transactionId: string; body: unknown }[];
  /** Answer the next n consumption sends with 500 (a failed send the delivery engine retries). */
  failConsumption: number;
  /** The requests seen: method, path and whether the bearer JWT was accepted. */
  requests: { method: string; path: string; authorized: boolean; body?: unknown }[];
  close(): Promise<void>;
}

/**
 * The App Store Server API on loopback: refund lookup v2, notification history v1 and Send Consumption Information
 * v2, bearer JWT checked.
 */
export async function startAppleApi(key: AppleApiKey, bundleId = TEST_BUNDLE_ID): Promise<AppleApiServer> {
  const state: Omit<AppleApiServer, 'url' | 'close'> = {
    refunds: new Map(),
    notifications: [],
    pageSize: 20,
    requests: [],
    consumption: [],
    failConsumption: 0,
  };

  async function authorized(header: string | undefined): Promise<boolean> {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!token) return false;
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: ['ES256'],
        issuer: key.issuerId,
        audience: 'appstoreconnect-v1',
        maxTokenAge: '1h',
      });
      return decodeProtectedHeader(token).kid === key.keyId && payload.bid === bundleId;
    } catch {
      return false;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const ok = await authorized(req.headers.authorization);
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        state.requests.push({ method: req.method ?? '', path: url.pathname, authorized: ok, body });
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        };
        if (!ok) return send(401, {});
        const refund = /^\/inApps\/v2\/refund\/lookup\/([^/]+)$/.exec(url.pathname);
        if (refund && req.method === 'GET') {
          const all = state.refunds.get(decodeURIComponent(refund[1]!));
          if (!all) return send(404, { errorCode: 4040010, errorMessage: 'Transaction id not found.' });
          const start = Number(url.searchParams.get('revision') ?? '0');
          const page = all.slice(start, start + state.pageSize);
          const next = start + page.length;
          return send(200, { signedTransactions: page, revision: String(next), hasMore: next < all.length });
        }
        const consumption = /^\/inApps\/v2\/transactions\/consumption\/([^/]+)$/.exec(url.pathname);
        if (consumption && req.method === 'PUT') {
          if (state.failConsumption > 0) {
            state.failConsumption--;
            return send(500, { errorCode: 5000000, errorMessage: 'An unknown error occurred.' });
          }
          const b = body as Record<string, unknown> | undefined;
          // Apple's required fields (ConsumptionRequest v2): a body without them is 400.
          if (
            typeof b?.customerConsented !== 'boolean' ||
            typeof b.deliveryStatus !== 'string' ||
            typeof b.sampleContentProvided !== 'boolean'
          )
            return send(400, { errorCode: 4000183, errorMessage: 'Invalid request.' });
          state.consumption.push({ transactionId: decodeURIComponent(consumption[1]!), body });
          res.writeHead(202).end();
          return;
        }
        if (url.pathname === '/inApps/v1/notifications/history' && req.method === 'POST') {
          const request = body as { startDate?: number; endDate?: number } | undefined;
          if (typeof request?.startDate !== 'number' || typeof request.endDate !== 'number')
            return send(400, { errorCode: 4000028, errorMessage: 'Invalid start date.' });
          const start = Number(url.searchParams.get('paginationToken') ?? '0');
          const page = state.notifications.slice(start, start + state.pageSize);
          const next = start + page.length;
          return send(200, {
            notificationHistory: page.map((signedPayload) => ({ signedPayload, sendAttemptResults: [] })),
            hasMore: next < state.notifications.length,
            ...(next < state.notifications.length ? { paginationToken: String(next) } : {}),
          });
        }
        return send(404, { errorCode: 4040000, errorMessage: 'Not found.' });
      })().catch((e: unknown) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
