import crypto from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import { randomToken } from '../crypto/secret-box.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { IpAllowList, isValidIpRange } from '../config/ip-ranges.js';
import type { AppRow, AppsRepository } from './apps.repository.js';
import type { App, AppCreateBody, AppPatchBody } from './apps.schemas.js';
import { checkCallbackUrl } from './callback-url.js';
import { sharedTtlCache, type TtlCache } from '../cache/ttl-cache.js';
import type { CacheBus } from '../cache/cache-bus.js';

/** An app as the other domains use it: parsed, with its live secrets. */
export interface AppRecord {
  appId: number;
  clientId: string;
  name: string;
  region: 'overseas' | 'mainland';
  active: boolean;
  callbackUrls: Record<string, string>;
  roleQueryUrl: string | null;
  roleListUrl: string | null;
  preOrderCheckUrl: string | null;
  cancellationCallbackUrl: string | null;
  partnerUrl: string | null;
  allowList: IpAllowList;
  unionIdEnabled: boolean;
  /** Tracing: its signed requests continue the game's traceparent (http/request-tracing.ts). */
  trustTraceparent: boolean;
  /** md5 secrets accepted now: the current one, then the previous one within its grace period. */
  secrets: string[];
}

const URL_FIELDS = [
  'roleQueryUrl',
  'roleListUrl',
  'preOrderCheckUrl',
  'cancellationCallbackUrl',
  'partnerUrl',
] as const;
const COLUMN: Record<
  (typeof URL_FIELDS)[number],
  'role_query_url' | 'role_list_url' | 'pre_order_check_url' | 'cancellation_callback_url' | 'partner_url'
> = {
  roleQueryUrl: 'role_query_url',
  roleListUrl: 'role_list_url',
  preOrderCheckUrl: 'pre_order_check_url',
  cancellationCallbackUrl: 'cancellation_callback_url',
  partnerUrl: 'partner_url',
};

/** How long a resolved app is cached per instance; a change made elsewhere is seen within this (without the cache bus). */
export const APP_CACHE_MS = 2000;

/**
 * The app registry: one app is one game integration (appId, clientId, md5
 * secret, the URLs the platform calls, the IP allow-list of 4.4).
 */
export class AppService {
  readonly #cache: TtlCache<string, AppRecord | null>;
  readonly #clientIds = new Map<number, string>();

  constructor(
    private readonly repo: AppsRepository,
    private readonly box: SecretBox,
    private readonly opts: {
      defaultRegion: 'overseas' | 'mainland';
      secretGraceSeconds: number;
      now?: () => number;
      /** Tells the other instances of a change at once (APP_CACHE_MS is the fallback). */
      cacheBus?: CacheBus;
    },
  ) {
    this.#cache = sharedTtlCache(APP_CACHE_MS, () => this.now(), 'apps', opts.cacheBus);
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  async create(body: AppCreateBody): Promise<{ app: App; secret: string }> {
    const checked = checkUrlsAndIps(body);
    const now = this.now();
    const clientId = crypto.randomBytes(12).toString('hex');
    const secret = randomToken(32);
    const row = await this.repo.insert({
      client_id: clientId,
      name: body.name,
      region: body.region ?? this.opts.defaultRegion,
      status: 'active',
      secret_enc: this.box.seal(secret, secretContext(clientId)),
      previous_secret_enc: null,
      previous_secret_expires_at: null,
      secret_rotated_at: now,
      callback_urls: JSON.stringify(checked.callbackUrls ?? {}),
      role_query_url: checked.roleQueryUrl ?? null,
      role_list_url: checked.roleListUrl ?? null,
      pre_order_check_url: checked.preOrderCheckUrl ?? null,
      cancellation_callback_url: checked.cancellationCallbackUrl ?? null,
      partner_url: checked.partnerUrl ?? null,
      allowed_ips: JSON.stringify(checked.allowedIps ?? []),
      union_id_enabled: body.unionIdEnabled ? 1 : 0,
      trust_traceparent: body.trustTraceparent ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    return { app: toApp(row), secret };
  }

  async list(): Promise<App[]> {
    return (await this.repo.list()).map(toApp);
  }

  async get(appId: number): Promise<App> {
    return toApp(await this.row(appId));
  }

  async update(appId: number, patch: AppPatchBody): Promise<App> {
    const checked = checkUrlsAndIps(patch);
    await this.row(appId);
    const changes: Parameters<AppsRepository['update']>[1] = { updated_at: this.now() };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.region !== undefined) changes.region = patch.region;
    if (patch.status !== undefined) changes.status = patch.status;
    if (checked.callbackUrls !== undefined) changes.callback_urls = JSON.stringify(checked.callbackUrls);
    for (const f of URL_FIELDS) if (checked[f] !== undefined) changes[COLUMN[f]] = checked[f];
    if (checked.allowedIps !== undefined) changes.allowed_ips = JSON.stringify(checked.allowedIps);
    if (patch.unionIdEnabled !== undefined) changes.union_id_enabled = patch.unionIdEnabled ? 1 : 0;
    if (patch.trustTraceparent !== undefined) changes.trust_traceparent = patch.trustTraceparent ? 1 : 0;
    const row = await this.repo.update(appId, changes);
    this.#cache.delete(row!.client_id);
    return toApp(row!);
  }

  /**
   * New secret now; the previous one stays valid for SECRET_GRACE_SECONDS so
   * the game's servers can be switched over without an outage.
   */
  async rotateSecret(appId: number): Promise<{ app: App; secret: string }> {
    const current = await this.row(appId);
    const now = this.now();
    const secret = randomToken(32);
    const row = await this.repo.update(appId, {
      secret_enc: this.box.seal(secret, secretContext(current.client_id)),
      previous_secret_enc: current.secret_enc,
      previous_secret_expires_at: now + this.opts.secretGraceSeconds * 1000,
      secret_rotated_at: now,
      updated_at: now,
    });
    this.#cache.delete(current.client_id);
    return { app: toApp(row!), secret };
  }

  /** The app of a clientId, for request authentication; null when unknown. Cached briefly. */
  resolveByClientId(clientId: string): Promise<AppRecord | null> {
    return this.#cache.getOrLoad(clientId, this.#loadByClientId);
  }
  // A field, not a closure per call: resolveByClientId is on the path of every signed request (issue 44).
  readonly #loadByClientId = async (clientId: string): Promise<AppRecord | null> => {
    const row = await this.repo.byClientId(clientId);
    return row ? this.toRecord(row, this.now()) : null;
  };

  /**
   * The app of an appId (4.6 bodies, outbox events); cached like
   * resolveByClientId. An app's clientId never changes, so the mapping is kept.
   */
  async resolveByAppId(appId: number): Promise<AppRecord | null> {
    let clientId = this.#clientIds.get(appId);
    if (clientId === undefined) {
      const row = await this.repo.byAppId(appId);
      if (!row) return null;
      if (this.#clientIds.size > 10_000) this.#clientIds.clear();
      clientId = row.client_id;
      this.#clientIds.set(appId, clientId);
    }
    return this.resolveByClientId(clientId);
  }

  /** The active app of a clientId when the cache holds it, at once; undefined otherwise (requireActive decides). */
  activeNow(clientId: string): AppRecord | undefined {
    const record = this.#cache.get(clientId)?.value;
    return record?.active ? record : undefined;
  }

  /** Like resolveByClientId, but unknown or disabled apps are refused (UNKNOWN_CLIENT). */
  async requireActive(clientId: string): Promise<AppRecord> {
    const record = await this.resolveByClientId(clientId);
    if (!record || !record.active)
      throw new AppError('UNKNOWN_CLIENT', `clientId ${JSON.stringify(clientId)} is not a known active app`);
    return record;
  }

  private async row(appId: number): Promise<AppRow> {
    const row = await this.repo.byAppId(appId);
    if (!row) throw new AppError('NOT_FOUND', `app ${appId} does not exist`);
    return row;
  }

  private toRecord(row: AppRow, now: number): AppRecord {
    const secrets = [this.box.open(row.secret_enc, secretContext(row.client_id))];
    if (row.previous_secret_enc && (row.previous_secret_expires_at ?? 0) > now) {
      secrets.push(this.box.open(row.previous_secret_enc, secretContext(row.client_id)));
    }
    const app = toApp(row);
    return {
      appId: app.appId,
      clientId: app.clientId,
      name: app.name,
      region: app.region,
      active: app.status === 'active',
      callbackUrls: app.callbackUrls,
      roleQueryUrl: app.roleQueryUrl,
      roleListUrl: app.roleListUrl,
      preOrderCheckUrl: app.preOrderCheckUrl,
      cancellationCallbackUrl: app.cancellationCallbackUrl,
      partnerUrl: app.partnerUrl,
      allowList: new IpAllowList(app.allowedIps),
      unionIdEnabled: app.unionIdEnabled,
      trustTraceparent: app.trustTraceparent,
      secrets,
    };
  }
}

const SERVER_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

function secretContext(clientId: string): string {
  return `app-secret:${clientId}`;
}

/** The app columns sealed under the master key (master key rotation: master-key/reseal.ts). */
export const APP_SEALED_COLUMNS: SealedColumn[] = (['secret_enc', 'previous_secret_enc'] as const).map((column) => ({
  table: 'apps',
  id: 'app_id',
  column,
  contextColumns: ['client_id'],
  context: (row) => secretContext(String(row.client_id)),
}));

function checkUrlsAndIps<T extends Partial<AppCreateBody>>(body: T): T {
  const out = { ...body };
  if (body.callbackUrls) {
    out.callbackUrls = Object.fromEntries(
      Object.entries(body.callbackUrls).map(([serverId, url]) => {
        if (!SERVER_ID.test(serverId))
          throw invalidParameter(`callbackUrls.${serverId}`, 'a server id is 1-64 of A-Z a-z 0-9 _ . : -');
        return [serverId, checkCallbackUrl(`callbackUrls.${serverId}`, url)];
      }),
    );
  }
  for (const f of URL_FIELDS) {
    const v = body[f];
    if (typeof v === 'string') (out as Record<string, unknown>)[f] = checkCallbackUrl(f, v);
  }
  body.allowedIps?.forEach((ip, i) => {
    if (!isValidIpRange(ip))
      throw invalidParameter(`allowedIps.${i}`, `${JSON.stringify(ip)} is not an IP address or CIDR`);
  });
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toApp(row: AppRow): App {
  return {
    appId: row.app_id,
    clientId: row.client_id,
    name: row.name,
    region: row.region as App['region'],
    status: row.status as App['status'],
    callbackUrls: JSON.parse(row.callback_urls) as Record<string, string>,
    roleQueryUrl: row.role_query_url,
    roleListUrl: row.role_list_url,
    preOrderCheckUrl: row.pre_order_check_url,
    cancellationCallbackUrl: row.cancellation_callback_url,
    partnerUrl: row.partner_url,
    allowedIps: JSON.parse(row.allowed_ips) as string[],
    unionIdEnabled: row.union_id_enabled === 1,
    trustTraceparent: row.trust_traceparent === 1,
    secretRotatedAt: iso(row.secret_rotated_at),
    previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : iso(row.previous_secret_expires_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
