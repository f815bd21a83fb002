/** Test-only: signing requests the way the platform does, and sending them over real HTTP. */
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { buildCallbackHeaders } from '../callback-sign.js';
import { vectorText } from '../vectors.testlib.js';

export const KEY_ID = 'platform-test-1';
export const privateKey = vectorText('rsa-test-private.pem');
export const publicKey = vectorText('rsa-test-public.pem');
export const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

export interface SendOptions {
  method?: 'GET' | 'POST';
  /** Path and query the request goes to. */
  path: string;
  body?: string;
  /** What is signed, when it differs from what is sent. */
  sign?: {
    method?: 'GET' | 'POST';
    path?: string;
    body?: string;
    timestamp?: number;
    nonce?: string;
    privateKey?: unknown;
    keyId?: string | null;
  };
  /** Headers replacing the signed ones (undefined removes one). */
  headers?: Record<string, string | undefined>;
  /** Reuse exactly these signed headers (replay). */
  reuse?: Record<string, string>;
}

export interface Sent {
  status: number;
  json: unknown;
  headers: Record<string, string>;
}

export function signedHeaders(o: SendOptions): Record<string, string> {
  const s = o.sign ?? {};
  const keyId = s.keyId === undefined ? KEY_ID : s.keyId;
  return buildCallbackHeaders({
    method: s.method ?? o.method ?? 'POST',
    path: s.path ?? o.path,
    body: s.body ?? o.body ?? '',
    privateKey: (s.privateKey ?? privateKey) as string,
    ...(keyId === null ? {} : { keyId }),
    ...(s.timestamp !== undefined ? { timestamp: s.timestamp } : {}),
    ...(s.nonce !== undefined ? { nonce: s.nonce } : {}),
  });
}

export async function send(base: string, o: SendOptions): Promise<Sent & { sentHeaders: Record<string, string> }> {
  const sentHeaders: Record<string, string> = { ...(o.reuse ?? signedHeaders(o)) };
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    if (v === undefined) delete sentHeaders[k];
    else sentHeaders[k] = v;
  }
  const method = o.method ?? 'POST';
  const res = await fetch(base + o.path, {
    method,
    headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...sentHeaders },
    ...(o.body !== undefined ? { body: o.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: parseOrText(text), headers: Object.fromEntries(res.headers), sentHeaders };
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A payment body as the platform sends it: field order and spacing that a re-serialisation would change. */
export const PAYMENT_BODY =
  '{"notifyId":7, "trxType":0,"notifyTime":1700000000000,"appId":1001,"userId":"u-1","trxNo":42,' +
  '"outTrxNo":null,"platform":2,"channel":2,"paymentType":0,"products":[{"productCode":"gems","quantity":1,"channelSkuCode":"sku"}],' +
  '"currency":"USD","region":"US","clientAmount":0.99,"clientCurrency":"USD","clientRegion":"US","totalAmount":0.99,"status":0,' +
  '"successTime":1700000000000,"attach":{"gameServerId":"s1","gameRoleId":"r1","gameExt":""},"amount":1.10}';

function parseOrText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
