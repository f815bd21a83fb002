/**
 * Test helpers: a real game server on 127.0.0.1 (port 0) with a fresh data folder,
 * and signed calls to it made the way the platform makes them, with the SDK's
 * buildCallbackHeaders (5.3) and a test key pair.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCallbackHeaders } from '@game-platform/sdk';
import { loadConfig } from './config.js';
import { startGameServer, type RunningGameServer } from './server.js';

export interface TestKey {
  kid: string;
  privateKey: KeyObject;
  publicPem: string;
}

export function testKey(kid: string): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

export const OPS_TOKEN = 'test-ops-token-0123456789';

export interface CallOptions {
  /** JSON text sent as is, or a value to stringify. */
  body?: string | object;
  query?: Record<string, string>;
  /** Signing key; default the harness key. `null`: send unsigned. */
  key?: TestKey | null;
  /** Send this Key-Id instead of the key's. `null`: no Key-Id header. */
  keyId?: string | null;
  timestamp?: number;
  nonce?: string;
  /** Change the headers or body after signing (to test tampering). */
  tamper?: (r: { headers: Record<string, string>; body: string }) => void;
}

export interface CallResult {
  status: number;
  body: any;
}

export interface TestGame {
  server: RunningGameServer;
  key: TestKey;
  dataDir: string;
  logs: string[];
  call(method: string, pathname: string, o?: CallOptions): Promise<CallResult>;
  ops(method: string, pathname: string, body?: unknown, token?: string | null): Promise<CallResult>;
  close(): Promise<void>;
}

export async function startTestGame(
  env: Record<string, string> = {},
  o: { key?: TestKey; dataDir?: string; fetch?: typeof fetch } = {},
): Promise<TestGame> {
  const key = o.key ?? testKey('test-key-1');
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'game-server-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PLATFORM_PUBLIC_KEYS: JSON.stringify({ [key.kid]: key.publicPem }),
    OPS_TOKEN,
    LOG: 'silent',
    ...env,
  });
  const logs: string[] = [];
  let server: RunningGameServer;
  try {
    server = await startGameServer(config, { log: (l) => logs.push(l), ...(o.fetch ? { fetch: o.fetch } : {}) });
  } catch (e) {
    if (!o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }

  async function call(method: string, pathname: string, c: CallOptions = {}): Promise<CallResult> {
    const body = c.body === undefined ? '' : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
    const signer = c.key === undefined ? key : c.key;
    const headers: Record<string, string> = body === '' ? {} : { 'content-type': 'application/json' };
    if (signer) {
      Object.assign(
        headers,
        buildCallbackHeaders({
          method,
          path: pathname,
          body,
          privateKey: signer.privateKey,
          ...(c.keyId === null ? {} : { keyId: c.keyId ?? signer.kid }),
          ...(c.timestamp !== undefined ? { timestamp: c.timestamp } : {}),
          ...(c.nonce !== undefined ? { nonce: c.nonce } : {}),
        }),
      );
    }
    const sent = { headers, body };
    c.tamper?.(sent);
    const qs = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
    const res = await fetch(`${server.url}${pathname}${qs}`, {
      method,
      headers: sent.headers,
      ...(sent.body === '' ? {} : { body: sent.body }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function ops(
    method: string,
    pathname: string,
    body?: unknown,
    token: string | null = OPS_TOKEN,
  ): Promise<CallResult> {
    const res = await fetch(`${server.url}${pathname}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  return {
    server,
    key,
    dataDir,
    logs,
    call,
    ops,
    async close() {
      await server.close();
      if (!o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let notifyIds = 1000;

/** A 2.4 payment notification body with the fields in the spec's order. */
export function paymentBody(p: {
  trxNo: number;
  userId: string;
  roleId?: string;
  serverId?: string;
  products: [string, number][];
  status?: number;
}): Record<string, unknown> {
  return {
    notifyId: ++notifyIds,
    notifyTime: Date.now(),
    appId: 7,
    userId: p.userId,
    trxNo: p.trxNo,
    trxType: 0,
    outTrxNo: `order-${p.trxNo}`,
    platform: 2,
    channel: 2,
    paymentType: 0,
    products: p.products.map(([productCode, quantity]) => ({
      productCode,
      quantity,
      channelSkuCode: `sku.${productCode}`,
    })),
    currency: 'USD',
    region: 'JP',
    clientAmount: 0.99,
    clientCurrency: 'USD',
    clientRegion: 'JP',
    totalAmount: 0.99,
    status: p.status ?? 0,
    successTime: Date.now(),
    attach: p.roleId === undefined ? null : { gameServerId: p.serverId ?? 's1', gameRoleId: p.roleId, gameExt: '' },
    bankTrxNo: `GPA.${p.trxNo}`,
  };
}

/** A 2.5 refund notification body for a payment body made by paymentBody. */
export function refundBody(payment: Record<string, unknown>, trxNo: number): Record<string, unknown> {
  return {
    notifyId: ++notifyIds,
    appId: payment.appId,
    notifyTime: Date.now(),
    userId: payment.userId,
    trxNo,
    originalTrxNo: payment.trxNo,
    trxType: 2,
    platform: payment.platform,
    channel: payment.channel,
    paymentType: payment.paymentType,
    products: payment.products,
    currency: payment.currency,
    totalAmount: payment.totalAmount,
    status: 0,
    successTime: Date.now(),
    attach: payment.attach,
  };
}

export const role = (userId: string, roleId: string, serverId = 's1') => ({
  userId,
  roleId,
  serverId,
  name: `Hero ${roleId}`,
  avatar: 'https://game.example/a.png',
  roleLv: 12,
  serverName: 'Server One',
});
