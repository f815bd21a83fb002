/**
 * The game server's configuration, from environment variables. A bad value stops
 * the server at start with a message naming the variable.
 */
import path from 'node:path';
import { type Catalog, DEFAULT_CATALOG, parseCatalog } from './catalog.js';
import { type RoleInput, parseRoleInput } from './roles.js';

export interface GameServerConfig {
  port: number;
  host: string;
  /** Folder of the game's own SQLite store (`game.db`). */
  dataDir: string;
  /** Platform public keys by key id (5.3), given directly. */
  publicKeys: Record<string, string>;
  /** A JSON file of `{kid: pem}` (or the platform's `{keys: [...]}` listing), re-read on refresh. */
  publicKeysFile: string | null;
  /** Base URL of the platform's admin API; its `GET /admin/v1/platform-keys` is fetched at start and on refresh. */
  platformAdminUrl: string | null;
  /** The platform's base URL: the keys from its public GET /v1/platform-keys. */
  platformUrl: string | null;
  platformAdminToken: string | null;
  /** Permitted clock difference of signed calls (5.3), seconds. */
  windowSeconds: number;
  /** Roles created at start (upserted), e.g. for a test environment. */
  rolesSeed: RoleInput[];
  catalog: Catalog;
  /** Bearer token of the /ops endpoints; null: they are off. */
  opsToken: string | null;
  /** false: no log lines. */
  log: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function json(env: Env, name: string): unknown {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw new ConfigError(name, 'is not valid JSON');
  }
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}`);
  return Number(v);
}

function text(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v === '' ? null : v;
}

function httpUrl(env: Env, name: string): string | null {
  const v = text(env, name);
  if (v === null) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(name, 'is not an absolute URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(name, 'must be an http(s) URL');
  return v.replace(/\/+$/, '');
}

function keysObject(v: unknown, name: string): Record<string, string> {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ConfigError(name, 'must be a JSON object {"<key id>": "<PEM>"}');
  for (const [kid, pem] of Object.entries(v)) {
    if (typeof pem !== 'string' || pem === '')
      throw new ConfigError(name, `key ${JSON.stringify(kid)} must be a PEM string`);
  }
  return v as Record<string, string>;
}

function roles(v: unknown, name: string): RoleInput[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ConfigError(name, 'must be a JSON array of roles');
  return v.map((r, i) => {
    const parsed = parseRoleInput(r);
    if (typeof parsed === 'string') throw new ConfigError(name, `[${i}].${parsed}`);
    return parsed;
  });
}

export function loadConfig(env: Env = process.env): GameServerConfig {
  const catalogJson = json(env, 'PRODUCTS');
  let catalog = DEFAULT_CATALOG;
  if (catalogJson !== undefined) {
    const parsed = parseCatalog(catalogJson);
    if (typeof parsed === 'string') throw new ConfigError('PRODUCTS', parsed);
    catalog = parsed;
  }
  const config: GameServerConfig = {
    port: int(env, 'PORT', 8081, 0, 65535),
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './game-data'),
    publicKeys: keysObject(json(env, 'PLATFORM_PUBLIC_KEYS'), 'PLATFORM_PUBLIC_KEYS'),
    publicKeysFile: text(env, 'PLATFORM_PUBLIC_KEYS_FILE'),
    platformAdminUrl: httpUrl(env, 'PLATFORM_ADMIN_URL'),
    platformUrl: httpUrl(env, 'PLATFORM_URL'),
    platformAdminToken: text(env, 'PLATFORM_ADMIN_TOKEN'),
    windowSeconds: int(env, 'SIGN_WINDOW_SECONDS', 300, 1, 3600),
    rolesSeed: roles(json(env, 'ROLES_SEED'), 'ROLES_SEED'),
    catalog,
    opsToken: text(env, 'OPS_TOKEN'),
    log: env.LOG !== 'silent',
  };
  if (config.platformAdminUrl !== null && config.platformAdminToken === null) {
    throw new ConfigError('PLATFORM_ADMIN_TOKEN', 'is required with PLATFORM_ADMIN_URL');
  }
  if (
    Object.keys(config.publicKeys).length === 0 &&
    config.publicKeysFile === null &&
    config.platformAdminUrl === null &&
    config.platformUrl === null
  ) {
    throw new ConfigError(
      'PLATFORM_PUBLIC_KEYS',
      'no platform public key source: set PLATFORM_URL, PLATFORM_PUBLIC_KEYS, PLATFORM_PUBLIC_KEYS_FILE or PLATFORM_ADMIN_URL',
    );
  }
  if (config.opsToken !== null && config.opsToken.length < 16)
    throw new ConfigError('OPS_TOKEN', 'must be at least 16 characters');
  return config;
}
