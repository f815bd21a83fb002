import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import path from 'node:path';
import { isValidIpRange } from '../http/ip-ranges.js';

/**
 * Every environment variable the service reads, with its default. The README's
 * configuration table mirrors this schema; a test keeps the two in step.
 */
const Env = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on.' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Interface to bind.' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data', description: 'Embedded database, key file, admin token file and (embedded storage) evidence files.' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'Unset: embedded SQLite in DATA_DIR. postgres://... : PostgreSQL.' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'PostgreSQL connection pool size per instance.' }),
  ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 24, description: 'Bearer token of the admin API. Required with PostgreSQL; generated into DATA_DIR/admin-token in embedded mode when unset.' })),
  MASTER_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/=_-]{43,}$', description: 'Base64 or base64url of 32 random bytes; encrypts secrets at rest (AES-256-GCM). Required with PostgreSQL; generated into DATA_DIR/master.key in embedded mode when unset.' })),
  REGION: Type.Union([Type.Literal('overseas'), Type.Literal('mainland')], { default: 'overseas', description: 'Deployment region (overseas | mainland).' }),
  PUBLIC_HOST: Type.Optional(Type.String({ minLength: 1, description: 'Host name clients sign in the MAC sign base (5.2). Unset: the Host header without its port.' })),
  PUBLIC_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 443, description: 'Port clients sign in the MAC sign base (5.2).' }),
  TRUSTED_PROXIES: Type.String({ default: '', description: 'Comma-separated IPs/CIDRs of reverse proxies whose X-Forwarded-For / X-Forwarded-Host are believed. Empty: none.' }),
  SIGN_WINDOW_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 300, description: 'Permitted clock difference for signed requests; nonces are kept this long.' }),
  SECRET_GRACE_SECONDS: Type.Integer({ minimum: 0, maximum: 30 * 86400, default: 86400, description: 'How long the previous md5 secret stays valid after a rotation.' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, default: 1024 * 1024, description: 'Largest accepted request body; larger gets 413.' }),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info', description: 'pino log level.' }),
  NODE_ENV: Type.String({ default: 'development', description: '`production` turns on production mode (sandbox features refused).' }),
  SANDBOX_PAYMENTS: Type.Boolean({ default: false, description: 'Enables the sandbox payment channel (tests, demos): operators complete, fail and refund payments by hand. Refused in production mode.' }),
});

export type Env = Static<typeof Env>;

export interface Config extends Env {
  /** DATA_DIR resolved to an absolute path. */
  dataDir: string;
  production: boolean;
  trustedProxies: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Environment variables described for the README table (name, default, description). */
export function describeEnv(): Array<{ name: string; default: unknown; description: string }> {
  return Object.entries(Env.properties).map(([name, schema]) => ({
    name,
    default: (schema as { default?: unknown }).default,
    description: String((schema as { description?: string }).description ?? ''),
  }));
}

/**
 * Reads and validates the environment. A bad value throws a ConfigError naming
 * the variable, so the service refuses to start rather than run misconfigured.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(Env, Value.Default(Env, raw));
  const errors = [...Value.Errors(Env, converted)];
  if (errors.length > 0) {
    const messages = errors.map((e) => `${e.path.slice(1) || '(env)'}: ${e.message}`);
    throw new ConfigError(`invalid configuration: ${[...new Set(messages)].join('; ')}`);
  }
  const parsed = converted as Env;
  if (parsed.DATABASE_URL && !parsed.MASTER_KEY) {
    throw new ConfigError('invalid configuration: MASTER_KEY: required when DATABASE_URL is set (all instances must share it)');
  }
  if (parsed.DATABASE_URL && !parsed.ADMIN_TOKEN) {
    throw new ConfigError('invalid configuration: ADMIN_TOKEN: required when DATABASE_URL is set');
  }
  if (parsed.SANDBOX_PAYMENTS && parsed.NODE_ENV === 'production') {
    throw new ConfigError('invalid configuration: SANDBOX_PAYMENTS: the sandbox payment channel is never enabled in production mode');
  }
  const trustedProxies = parsed.TRUSTED_PROXIES.split(',').map((s) => s.trim()).filter(Boolean);
  const badProxy = trustedProxies.find((p) => !isValidIpRange(p));
  if (badProxy) throw new ConfigError(`invalid configuration: TRUSTED_PROXIES: ${JSON.stringify(badProxy)} is not an IP address or CIDR`);
  return {
    ...parsed,
    dataDir: path.resolve(parsed.DATA_DIR),
    production: parsed.NODE_ENV === 'production',
    trustedProxies,
  };
}
