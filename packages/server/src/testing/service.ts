import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { md5Sign, type SignableValue } from '@game-platform/sdk';
import { loadConfig, type Config } from '../config/config.js';
import { buildApp } from '../routes.js';
import { createServices, type Services } from '../services.js';
import { freshDatabase } from './database.js';
import type { Database } from '../db/database.js';
import type { PaymentChannelAdapter } from '../orders/payments/channels/channel.js';

export interface TestService {
  url: string;
  app: FastifyInstance;
  services: Services;
  /** The service's clock (TestServiceOptions.now, else Date.now). */
  now: () => number;
  config: Config;
  adminToken: string;
  /** fetch against the service; `path` starts with `/`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The text of GET /metrics, scraped with the test METRICS_TOKEN (metrics are closed by default, issue 41). */
  metrics(): Promise<string>;
  /** JSON request to the admin API with the bearer token. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Creates an app through the admin API; returns the answer (with `secret`). */
  createApp(body?: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

/**
 * A real service for a test file: a fresh database on the suite's backend,
 * real HTTP on a loopback port. `env` overrides configuration variables.
 */
export interface TestServiceOptions {
  now?: () => number;
  /** Extra routes for the test (registered before listen), e.g. to exercise an auth scheme. */
  routes?: (app: FastifyInstance, services: Services) => void | Promise<void>;
  /** false: do not start the delivery dispatcher (events stay in the outbox). Default true. */
  dispatcher?: boolean;
  /** An open database and DATA_DIR to use instead of fresh ones: a restart of the same service (see reopenDatabase). */
  storage?: { database: Database; dataDir: string };
  /** Payment channel adapters asked first (a fixture provider). */
  channelAdapters?: PaymentChannelAdapter[];
}

/** The METRICS_TOKEN of test services and spawned test processes. */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

/** GET /metrics of the service at `url` with the test METRICS_TOKEN; throws unless it answers 200. */
export async function scrapeMetrics(url: string, token = TEST_METRICS_TOKEN): Promise<string> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status} ${text}`);
  return text;
}

export async function startTestService(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<TestService> {
  const { database, dataDir } = opts.storage ?? (await freshDatabase());
  const adminToken = crypto.randomBytes(24).toString('base64url');
  const config = loadConfig({
    DATA_DIR: dataDir,
    MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    // Calls to games give up quickly, so closing a test service never waits long.
    DELIVERY_TIMEOUT_MS: '2000',
    DELIVERY_POLL_MS: '200',
    // Every test request comes from 127.0.0.1: the audit trail's bound for refusals (a quarter a minute per IP) would
    // drop the entries tests read. The bound's own test sets it low.
    AUDIT_REFUSALS_PER_MINUTE: '100000',
    // /metrics is closed by default: tests scrape it with this token (svc.metrics()).
    METRICS_TOKEN: TEST_METRICS_TOKEN,
    ...env,
  });
  const services = await createServices(config, {
    database,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.channelAdapters ? { channelAdapters: opts.channelAdapters } : {}),
  });
  const app = await buildApp(services, { logger: false });
  if (opts.routes) await opts.routes(app, services);
  const url = (await app.listen({ host: '127.0.0.1', port: config.PORT })).replace('localhost', '127.0.0.1');
  if (opts.dispatcher !== false) services.delivery.start();
  const call = (path: string, init?: RequestInit) => fetch(url + path, init);
  const admin = adminClient(url, adminToken);
  return {
    url,
    app,
    services,
    now: opts.now ?? Date.now,
    config,
    adminToken,
    fetch: call,
    metrics: () => scrapeMetrics(url),
    admin,
    async createApp(body = {}) {
      const res = await admin('POST', '/apps', { name: 'test game', ...body });
      if (res.status !== 201) throw new Error(`createApp: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async close() {
      await app.close();
      await services.close();
    },
  };
}

/** JSON requests to the admin API of the service at `url` (this process's or another's) with the bearer token. */
export function adminClient(url: string, adminToken: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}/admin/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Adds nonce, timestamp and the md5 sign (5.1) to params. */
export function signMd5<T extends Record<string, SignableValue>>(
  params: T,
  secret: string,
  opts: { timestamp?: string | number; nonce?: string } = {},
): T & { nonce: string; timestamp: string | number; sign: string } {
  const withReplay = {
    ...params,
    nonce: opts.nonce ?? crypto.randomBytes(12).toString('base64url'),
    timestamp: opts.timestamp ?? String(Math.floor(Date.now() / 1000)),
  };
  return { ...withReplay, sign: md5Sign(withReplay, secret) };
}
