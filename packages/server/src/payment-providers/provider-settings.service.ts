import type { TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { sharedTtlCache, type TtlCache } from '../cache/ttl-cache.js';
import type { CacheBus } from '../cache/cache-bus.js';
import type { ProvidersRepository, ProviderSettingsRow } from './payment-providers.repository.js';
import type { AnyProvider, PayerRegion, ProviderSettings } from './provider.js';
import type { ProviderRegistry } from './providers.js';
import type { ProviderSettingsBody, ProviderSettingsView, ProvidersView } from './provider-settings.schemas.js';

/** How long an instance trusts whether an app's provider is enabled (asked at every web order); as APP_CACHE_MS. */
export const PROVIDER_ENABLED_CACHE_MS = 2000;

const secretsContext = (appId: unknown, provider: unknown) => `payment-provider:${String(appId)}:${String(provider)}`;

/** The provider secrets sealed under the master key (master key rotation: master-key/reseal.ts). */
export const PROVIDER_SETTINGS_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'payment_provider_settings',
    id: 'settings_id',
    column: 'secrets_enc',
    contextColumns: ['app_id', 'provider'],
    context: (row) => secretsContext(row.app_id, row.provider),
  },
];

/** A method the page offers: the provider, what it is called, its channel. */
export interface OfferedMethod {
  provider: string;
  method: string;
  channel: number;
}

/**
 * Per-app payment provider settings, written once for every provider: regions, public config, secrets sealed at rest
 * (never answered), the schemas each adapter declares checked here (the CLI comes through here too).
 */
export class ProviderSettingsService {
  readonly #enabled: TtlCache<string, PayerRegion[] | null>;

  constructor(
    /** The settings' and payments' SQL over db: the module hands it on to the domain's other parts. */
    readonly repo: ProvidersRepository,
    private readonly box: SecretBox,
    readonly registry: ProviderRegistry,
    private readonly appExists: (appId: number) => Promise<boolean>,
    private readonly now: () => number = Date.now,
    cacheBus?: CacheBus,
  ) {
    this.#enabled = sharedTtlCache(PROVIDER_ENABLED_CACHE_MS, now, 'provider-enabled', cacheBus);
  }

  /** Every provider with its fields and webhook URL, and the app's settings of it (null: none). */
  async show(appId: number, baseUrl: string): Promise<ProvidersView> {
    await this.requireApp(appId);
    const rows = new Map((await this.repo.settingsOf(appId)).map((r) => [r.provider, r]));
    return {
      appId,
      providers: this.registry.all.map((p) => {
        const row = rows.get(p.id);
        return {
          provider: p.id,
          method: p.method,
          channel: p.channel,
          defaultRegions: p.defaultRegions,
          webhookUrl: webhookUrl(baseUrl, p.id, appId),
          fields: { config: fieldsOf(p.settings.config), secrets: fieldsOf(p.settings.secrets) },
          settings: row ? toView(row, this.secretNames(row)) : null,
        };
      }),
    };
  }

  async put(appId: number, providerId: string, body: ProviderSettingsBody): Promise<ProviderSettingsView> {
    const provider = this.provider(providerId);
    const config = checked(provider.settings.config, body.config ?? {}, 'config');
    const regions = body.regions ?? provider.defaultRegions;
    await this.requireApp(appId);
    const stored = await this.repo.settings(appId, provider.id);
    const secrets: Record<string, string> = stored?.secrets_enc ? this.openSecrets(stored) : {};
    const known = Object.keys(provider.settings.secrets.properties);
    for (const [name, value] of Object.entries((body.secrets ?? {}) as Record<string, string | null>)) {
      if (!known.includes(name)) throw invalidParameter(`secrets.${name}`, 'is not a known field');
      if (value === null) delete secrets[name];
      else secrets[name] = value;
    }
    checked(provider.settings.secrets, secrets, 'secrets');
    provider.settings.check?.(config, secrets);
    const now = this.now();
    await this.repo.putSettings({
      app_id: appId,
      provider: provider.id,
      enabled: body.enabled === false ? 0 : 1,
      regions: JSON.stringify([...new Set(regions)]),
      config: JSON.stringify(config),
      secrets_enc:
        Object.keys(secrets).length === 0
          ? null
          : this.box.seal(JSON.stringify(secrets), secretsContext(appId, provider.id)),
      created_at: stored?.created_at ?? now,
      updated_at: now,
    });
    this.#enabled.delete(`${appId}:${provider.id}`);
    const row = (await this.repo.settings(appId, provider.id))!;
    return toView(row, this.secretNames(row));
  }

  async remove(appId: number, providerId: string): Promise<void> {
    const provider = this.provider(providerId);
    await this.requireApp(appId);
    const deleted = await this.repo.deleteSettings(appId, provider.id);
    this.#enabled.delete(`${appId}:${provider.id}`);
    if (!deleted) throw new AppError('NOT_FOUND', `app ${appId} has no ${provider.id} settings`);
  }

  /** The payer regions an app offers this provider in; null when it is not set up or disabled (cached briefly). */
  enabledRegions(appId: number, providerId: string): Promise<PayerRegion[] | null> {
    return this.#enabled.getOrLoad(`${appId}:${providerId}`, async () => {
      const row = await this.repo.settings(appId, providerId);
      return row?.enabled === 1 ? (JSON.parse(row.regions) as PayerRegion[]) : null;
    });
  }

  /** The methods the page offers a payer of `region`: the app's enabled providers for that region. */
  async methodsFor(appId: number, region: PayerRegion): Promise<OfferedMethod[]> {
    const out: OfferedMethod[] = [];
    for (const p of this.registry.all)
      if ((await this.enabledRegions(appId, p.id))?.includes(region))
        out.push({ provider: p.id, method: p.method, channel: p.channel });
    return out;
  }

  /** The opened settings an adapter is handed (disabled ones too: a payment made before disabling still counts). */
  async forApp(appId: number, providerId: string): Promise<ProviderSettings | null> {
    const row = await this.repo.settings(appId, providerId);
    if (!row) return null;
    return {
      appId,
      enabled: row.enabled === 1,
      regions: JSON.parse(row.regions) as PayerRegion[],
      config: JSON.parse(row.config) as Record<string, string>,
      secrets: row.secrets_enc ? this.openSecrets(row) : {},
    };
  }

  provider(id: string): AnyProvider {
    const p = this.registry.get(id);
    if (!p)
      throw new AppError(
        'NOT_FOUND',
        `no payment provider ${JSON.stringify(id)}; known: ${this.registry.ids.join(', ')}`,
      );
    return p;
  }

  private openSecrets(row: ProviderSettingsRow): Record<string, string> {
    return JSON.parse(this.box.open(row.secrets_enc!, secretsContext(row.app_id, row.provider))) as Record<
      string,
      string
    >;
  }

  private secretNames(row: ProviderSettingsRow): string[] {
    return row.secrets_enc ? Object.keys(this.openSecrets(row)).sort() : [];
  }

  private async requireApp(appId: number): Promise<void> {
    if (!(await this.appExists(appId))) throw new AppError('NOT_FOUND', `app ${appId} does not exist`);
  }
}

/** The webhook URL of an app and provider, absolute from the base the operator reached this service at. */
export function webhookUrl(baseUrl: string, provider: string, appId: number): string {
  return `${baseUrl}/notify/v1/providers/${provider}/${appId}`;
}

/** `value` checked against a provider's schema; the first problem names its field under `prefix`. */
function checked(schema: TObject, value: Record<string, unknown>, prefix: string): Record<string, string> {
  const error = Value.Errors(schema, value).First();
  if (error) {
    const path = error.path.replace(/^\//, '').replace(/\//g, '.');
    const extra = path && !(path.split('.')[0]! in schema.properties);
    throw invalidParameter(
      path ? `${prefix}.${path}` : prefix,
      extra ? 'is not a known field' : error.value === undefined ? 'is required' : error.message,
    );
  }
  return value as Record<string, string>;
}

function fieldsOf(schema: TObject) {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, s]) => ({
    name,
    description: String((s as { description?: string }).description ?? ''),
    required: required.has(name),
  }));
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

function toView(row: ProviderSettingsRow, secretsSet: string[]): ProviderSettingsView {
  return {
    provider: row.provider,
    enabled: row.enabled === 1,
    regions: JSON.parse(row.regions) as string[],
    config: JSON.parse(row.config) as Record<string, string>,
    secretsSet,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
