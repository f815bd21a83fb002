import crypto from 'node:crypto';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { sharedTtlCache, type TtlCache } from '../cache/ttl-cache.js';
import type { CacheBus } from '../cache/cache-bus.js';
import type { StoreName, StoreSettingsRepository, StoreSettingsRow } from './store-settings.repository.js';
import type {
  AppleSettingsBody,
  AppleSettingsView,
  GoogleSettingsBody,
  GoogleSettingsView,
} from './store-settings.schemas.js';

/**
 * How long an instance trusts whether an app's store settings are enabled (asked at every store order placement); a
 * change made here is seen at once, one made on another instance within this (as APP_CACHE_MS).
 */
export const STORE_ENABLED_CACHE_MS = 2000;

/** Most root certificates an app may trust instead of Apple's. */
export const MAX_ROOT_CERTIFICATES = 5;

/** Apple bundle ids: reverse-DNS, of A-Z a-z 0-9 - (App Store Connect also allows no other characters). */
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** Android package names: two or more segments, each a letter then letters, digits or _. */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const APPLE_KEY_ID = /^[A-Z0-9]{10}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The stored settings of one store, opened: what the adapters (AppleVerifier, GooglePublisher...) are built from. */
export interface AppleStoreSettings {
  appId: number;
  enabled: boolean;
  bundleId: string;
  appAppleId: number | null;
  environment: 'Production' | 'Sandbox';
  rootCertificatesPem: string | null;
  api: { issuerId: string; keyId: string; privateKey: string } | null;
}
export interface GoogleStoreSettings {
  appId: number;
  enabled: boolean;
  packageName: string;
  serviceAccountJson: string | null;
  pushAudience: string | null;
  pushServiceAccountEmail: string | null;
}

const appleKeyContext = (appId: unknown) => `app-store-apple-api-key:${String(appId)}`;
const googleAccountContext = (appId: unknown) => `app-store-google-service-account:${String(appId)}`;

/** The store settings columns sealed under the master key (master key rotation: master-key/reseal.ts). */
export const STORE_SETTINGS_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'app_store_settings',
    id: 'settings_id',
    column: 'api_private_key_enc',
    contextColumns: ['app_id'],
    context: (row) => appleKeyContext(row.app_id),
  },
  {
    table: 'app_store_settings',
    id: 'settings_id',
    column: 'service_account_enc',
    contextColumns: ['app_id'],
    context: (row) => googleAccountContext(row.app_id),
  },
];

/**
 * Per-app store settings (App Store = channel 1, Google Play = channel 2) that operators set and the store adapters
 * read. Input is checked here (the CLI comes through here too); secrets are sealed and never answered.
 */
export class StoreSettingsService {
  readonly #enabled: TtlCache<string, boolean>;

  constructor(
    private readonly repo: StoreSettingsRepository,
    private readonly box: SecretBox,
    private readonly appExists: (appId: number) => Promise<boolean>,
    private readonly now: () => number = Date.now,
    cacheBus?: CacheBus,
  ) {
    this.#enabled = sharedTtlCache(STORE_ENABLED_CACHE_MS, now, 'store-enabled', cacheBus);
  }

  async show(appId: number): Promise<{ apple: AppleSettingsView | null; google: GoogleSettingsView | null }> {
    await this.requireApp(appId);
    const rows = await this.repo.list(appId);
    const apple = rows.find((r) => r.store === 'apple');
    const google = rows.find((r) => r.store === 'google');
    return { apple: apple ? toAppleView(apple) : null, google: google ? toGoogleView(google) : null };
  }

  async putApple(appId: number, body: AppleSettingsBody): Promise<AppleSettingsView> {
    checkBundleId(body.bundleId);
    if (body.environment !== 'Production' && body.environment !== 'Sandbox')
      throw invalidParameter('environment', 'is Production or Sandbox');
    if (body.appAppleId != null && (!Number.isSafeInteger(body.appAppleId) || body.appAppleId < 1))
      throw invalidParameter('appAppleId', 'is a positive integer');
    if (body.environment === 'Production' && body.appAppleId == null)
      throw invalidParameter('appAppleId', 'is required in Production');
    const roots = body.rootCertificatesPem == null ? null : checkRootCertificates(body.rootCertificatesPem);
    if (body.apiIssuerId != null && !UUID.test(body.apiIssuerId))
      throw invalidParameter('apiIssuerId', 'is the issuer id of App Store Connect (a UUID)');
    if (body.apiKeyId != null && !APPLE_KEY_ID.test(body.apiKeyId))
      throw invalidParameter('apiKeyId', 'is the key id of App Store Connect (10 of A-Z 0-9)');
    if (typeof body.apiPrivateKey === 'string') checkP8(body.apiPrivateKey);
    await this.requireApp(appId);
    const stored = await this.repo.get(appId, 'apple');
    const keyEnc =
      body.apiPrivateKey === undefined
        ? (stored?.api_private_key_enc ?? null)
        : body.apiPrivateKey === null
          ? null
          : this.box.seal(body.apiPrivateKey, appleKeyContext(appId));
    const issuer = body.apiIssuerId ?? null;
    const keyId = body.apiKeyId ?? null;
    const parts = [issuer, keyId, keyEnc].filter((v) => v !== null).length;
    if (parts !== 0 && parts !== 3) {
      const missing = issuer === null ? 'apiIssuerId' : keyId === null ? 'apiKeyId' : 'apiPrivateKey';
      throw invalidParameter(
        missing,
        'the App Store Server API needs apiIssuerId, apiKeyId and apiPrivateKey together',
      );
    }
    const now = this.now();
    await this.repo.put({
      ...emptyRow(appId, 'apple', body.enabled ?? true, stored?.created_at ?? now, now),
      bundle_id: body.bundleId,
      app_apple_id: body.appAppleId ?? null,
      environment: body.environment,
      root_certificates_pem: roots,
      api_issuer_id: issuer,
      api_key_id: keyId,
      api_private_key_enc: keyEnc,
    });
    this.#enabled.delete(`${appId}:apple`);
    return toAppleView((await this.repo.get(appId, 'apple'))!);
  }

  async putGoogle(appId: number, body: GoogleSettingsBody): Promise<GoogleSettingsView> {
    if (!PACKAGE_NAME.test(body.packageName))
      throw invalidParameter('packageName', 'is a package name (reverse-DNS: com.example.game)');
    const account = typeof body.serviceAccountJson === 'string' ? checkServiceAccount(body.serviceAccountJson) : null;
    if (body.pushServiceAccountEmail != null && !EMAIL.test(body.pushServiceAccountEmail))
      throw invalidParameter('pushServiceAccountEmail', 'is an email address');
    if (body.pushAudience != null && /\s/.test(body.pushAudience))
      throw invalidParameter('pushAudience', 'has no white space');
    await this.requireApp(appId);
    const stored = await this.repo.get(appId, 'google');
    let enc: string | null;
    let email: string | null;
    if (body.serviceAccountJson === undefined) {
      enc = stored?.service_account_enc ?? null;
      email = stored?.service_account_email ?? null;
    } else if (body.serviceAccountJson === null) {
      enc = null;
      email = null;
    } else {
      enc = this.box.seal(body.serviceAccountJson, googleAccountContext(appId));
      email = account!.clientEmail;
    }
    const now = this.now();
    await this.repo.put({
      ...emptyRow(appId, 'google', body.enabled ?? true, stored?.created_at ?? now, now),
      package_name: body.packageName,
      service_account_enc: enc,
      service_account_email: email,
      push_audience: body.pushAudience ?? null,
      push_service_account_email: body.pushServiceAccountEmail ?? null,
    });
    this.#enabled.delete(`${appId}:google`);
    return toGoogleView((await this.repo.get(appId, 'google'))!);
  }

  async remove(appId: number, store: StoreName): Promise<void> {
    await this.requireApp(appId);
    const deleted = await this.repo.delete(appId, store);
    this.#enabled.delete(`${appId}:${store}`);
    if (!deleted) throw new AppError('NOT_FOUND', `app ${appId} has no ${store} store settings`);
  }

  /** Whether the app has enabled settings of this store (no secret opened: asked at every store order placement). */
  isEnabled(appId: number, store: StoreName): Promise<boolean> {
    return this.#enabled.getOrLoad(`${appId}:${store}`, async () => (await this.repo.get(appId, store))?.enabled === 1);
  }

  /** The apps with enabled settings of this store. */
  enabledApps(store: StoreName): Promise<number[]> {
    return this.repo.enabledApps(store);
  }

  /** The Apple settings with the .p8 key opened, for the adapters; null when none are stored. */
  async apple(appId: number): Promise<AppleStoreSettings | null> {
    const row = await this.repo.get(appId, 'apple');
    if (!row) return null;
    return {
      appId,
      enabled: row.enabled === 1,
      bundleId: row.bundle_id!,
      appAppleId: row.app_apple_id === null ? null : Number(row.app_apple_id),
      environment: row.environment as AppleStoreSettings['environment'],
      rootCertificatesPem: row.root_certificates_pem,
      api:
        row.api_private_key_enc && row.api_issuer_id && row.api_key_id
          ? {
              issuerId: row.api_issuer_id,
              keyId: row.api_key_id,
              privateKey: this.box.open(row.api_private_key_enc, appleKeyContext(appId)),
            }
          : null,
    };
  }

  /** The Google settings with the service account opened, for the adapters; null when none are stored. */
  async google(appId: number): Promise<GoogleStoreSettings | null> {
    const row = await this.repo.get(appId, 'google');
    if (!row) return null;
    return {
      appId,
      enabled: row.enabled === 1,
      packageName: row.package_name!,
      serviceAccountJson: row.service_account_enc
        ? this.box.open(row.service_account_enc, googleAccountContext(appId))
        : null,
      pushAudience: row.push_audience,
      pushServiceAccountEmail: row.push_service_account_email,
    };
  }

  private async requireApp(appId: number): Promise<void> {
    if (!(await this.appExists(appId))) throw new AppError('NOT_FOUND', `app ${appId} does not exist`);
  }
}

function emptyRow(appId: number, store: StoreName, enabled: boolean, createdAt: number, now: number) {
  return {
    app_id: appId,
    store,
    enabled: enabled ? 1 : 0,
    bundle_id: null,
    app_apple_id: null,
    environment: null,
    root_certificates_pem: null,
    api_issuer_id: null,
    api_key_id: null,
    api_private_key_enc: null,
    package_name: null,
    service_account_enc: null,
    service_account_email: null,
    push_audience: null,
    push_service_account_email: null,
    created_at: createdAt,
    updated_at: now,
  };
}

function checkBundleId(bundleId: string): void {
  if (!BUNDLE_ID.test(bundleId)) throw invalidParameter('bundleId', 'is a bundle id (reverse-DNS: com.example.game)');
}

/** The PEM certificates, each parsed by X509Certificate; answers them normalized (one PEM block each). */
function checkRootCertificates(pem: string): string {
  const blocks = pem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw invalidParameter('rootCertificatesPem', 'holds no PEM certificate');
  if (blocks.length > MAX_ROOT_CERTIFICATES)
    throw invalidParameter('rootCertificatesPem', `holds more than ${MAX_ROOT_CERTIFICATES} certificates`);
  if (pem.replace(PEM_CERT, '').trim() !== '')
    throw invalidParameter('rootCertificatesPem', 'holds something besides PEM certificates');
  return blocks
    .map((block, i) => {
      try {
        return new crypto.X509Certificate(block).toString().trim();
      } catch {
        throw invalidParameter('rootCertificatesPem', `certificate ${i + 1} does not parse`);
      }
    })
    .join('\n');
}

function checkP8(pem: string): void {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw invalidParameter('apiPrivateKey', 'is not a PEM private key (the .p8 file of App Store Connect)');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
    throw invalidParameter('apiPrivateKey', 'is not an EC P-256 key (the .p8 file of App Store Connect)');
}

/** The service account key file, checked; the error never quotes it (it holds a private key). */
function checkServiceAccount(json: string): { clientEmail: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw invalidParameter('serviceAccountJson', 'is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidParameter('serviceAccountJson', 'is not a JSON object');
  const o = parsed as Record<string, unknown>;
  if (o.type !== 'service_account') throw invalidParameter('serviceAccountJson.type', "is not 'service_account'");
  if (typeof o.client_email !== 'string' || !EMAIL.test(o.client_email))
    throw invalidParameter('serviceAccountJson.client_email', 'is not an email address');
  if (typeof o.private_key !== 'string') throw invalidParameter('serviceAccountJson.private_key', 'is missing');
  try {
    crypto.createPrivateKey({ key: o.private_key, format: 'pem' });
  } catch {
    throw invalidParameter('serviceAccountJson.private_key', 'is not a PEM private key');
  }
  if (typeof o.token_uri !== 'string' || !/^https:\/\/\S+$/.test(o.token_uri))
    throw invalidParameter('serviceAccountJson.token_uri', 'is not an https URL');
  return { clientEmail: o.client_email };
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

function toAppleView(row: StoreSettingsRow): AppleSettingsView {
  return {
    enabled: row.enabled === 1,
    bundleId: row.bundle_id!,
    appAppleId: row.app_apple_id === null ? null : Number(row.app_apple_id),
    environment: row.environment as AppleSettingsView['environment'],
    rootCertificatesPem: row.root_certificates_pem,
    apiIssuerId: row.api_issuer_id,
    apiKeyId: row.api_key_id,
    apiKeySet: row.api_private_key_enc !== null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

function toGoogleView(row: StoreSettingsRow): GoogleSettingsView {
  return {
    enabled: row.enabled === 1,
    packageName: row.package_name!,
    serviceAccountEmail: row.service_account_email,
    serviceAccountSet: row.service_account_enc !== null,
    pushAudience: row.push_audience,
    pushServiceAccountEmail: row.push_service_account_email,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
