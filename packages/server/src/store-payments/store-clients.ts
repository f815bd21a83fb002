import type {
  AppleStoreApi,
  AppleVerifier,
  GooglePublisher,
  GooglePushVerifier,
  StoreName,
} from '../app-stores/index.js';
import type { AppleStoreSettings, GoogleStoreSettings } from '../app-stores/store-settings.service.js';
import { AppError } from '../errors/app-error.js';
import { traceCalls } from '../tracing/tracing.js';

/** Where the stores' libraries are pointed (config: empty = the stores' own hosts; loopback fixtures in tests). */
export interface StoreEndpoints {
  appleApiBaseUrl: string;
  appleOnlineChecks: boolean;
  googleRootUrl: string;
  googleTokenUrl: string;
  googleCertsUrl: string;
}

/** What the store clients read: the app's opened settings (StoreSettingsService.apple / .google). */
export interface SettingsSource {
  apple(appId: number): Promise<AppleStoreSettings | null>;
  google(appId: number): Promise<GoogleStoreSettings | null>;
  isEnabled(appId: number, store: StoreName): Promise<boolean>;
}

/**
 * The stores' libraries (Apple's app-store-server-library, google-auth-library and the Android Publisher client) are
 * loaded on the first store call, not at start: they are about 17 MB of heap that an instance whose apps take no
 * store payments never uses (docs/benchmarks.md, "What this round changed"). Node caches a module once loaded.
 */
const appleVerify = () => import('../app-stores/apple/verify.js');
const appleApi = () => import('../app-stores/apple/api.js');
const googlePublisher = () => import('../app-stores/google/publisher.js');
const googlePush = () => import('../app-stores/google/push.js');

/**
 * The store adapters of one app, built from its settings on each use: settings changes apply at once, with no cache
 * to invalidate across instances (building them parses a few certificates; Google's access token is fetched per
 * use, which the purchase and notification rates allow).
 */
export class StoreClients {
  constructor(
    private readonly settings: SettingsSource,
    private readonly endpoints: StoreEndpoints,
  ) {}

  /** Whether the app takes payments of this store (enabled settings). */
  enabled(appId: number, store: StoreName): Promise<boolean> {
    return this.settings.isEnabled(appId, store);
  }

  async appleSettings(appId: number): Promise<AppleStoreSettings> {
    const s = await this.settings.apple(appId);
    if (!s?.enabled) throw new AppError('NOT_FOUND', `app ${appId} takes no App Store payments`);
    return s;
  }

  async googleSettings(appId: number): Promise<GoogleStoreSettings> {
    const s = await this.settings.google(appId);
    if (!s?.enabled) throw new AppError('NOT_FOUND', `app ${appId} takes no Google Play payments`);
    return s;
  }

  async appleVerifier(s: AppleStoreSettings): Promise<AppleVerifier> {
    const { AppleVerifier } = await appleVerify();
    // Each store call is a client span when tracing is on (the verifier's online checks reach Apple's OCSP).
    return traceCalls(
      new AppleVerifier({
        bundleId: s.bundleId,
        ...(s.appAppleId !== null ? { appAppleId: s.appAppleId } : {}),
        environment: s.environment,
        ...(s.rootCertificatesPem ? { rootCertificates: pemBlocks(s.rootCertificatesPem) } : {}),
        enableOnlineChecks: this.endpoints.appleOnlineChecks,
      }),
      'app_store',
      ['verifyTransaction', 'verifyNotification'],
    );
  }

  /** The App Store Server API of the app, or null without an In-App Purchase key. */
  async appleApi(s: AppleStoreSettings): Promise<AppleStoreApi | null> {
    if (!s.api) return null;
    const { AppleStoreApi, createAppleApiClient } = await appleApi();
    const client = createAppleApiClient({
      issuerId: s.api.issuerId,
      keyId: s.api.keyId,
      privateKey: s.api.privateKey,
      bundleId: s.bundleId,
      environment: s.environment,
      ...(this.endpoints.appleApiBaseUrl ? { baseUrl: this.endpoints.appleApiBaseUrl } : {}),
    });
    return traceCalls(new AppleStoreApi(client, await this.appleVerifier(s)), 'app_store', [
      'refundHistory',
      'notificationHistory',
      'sendConsumption',
    ]);
  }

  /** The Android Publisher API of the app, or null without a service account. */
  async googlePublisher(s: GoogleStoreSettings): Promise<GooglePublisher | null> {
    if (!s.serviceAccountJson) return null;
    const { GooglePublisher } = await googlePublisher();
    return traceCalls(
      new GooglePublisher({
        packageName: s.packageName,
        serviceAccount: s.serviceAccountJson,
        ...(this.endpoints.googleTokenUrl ? { tokenUrl: this.endpoints.googleTokenUrl } : {}),
        ...(this.endpoints.googleRootUrl ? { rootUrl: this.endpoints.googleRootUrl } : {}),
      }),
      'google_play',
      ['getPurchase', 'verifyPurchase', 'acknowledge', 'voidedPurchases'],
    );
  }

  /** The push verifier of the app, or null when the push audience or service account is not configured. */
  async googlePush(s: GoogleStoreSettings): Promise<GooglePushVerifier | null> {
    if (!s.pushAudience || !s.pushServiceAccountEmail) return null;
    const { GooglePushVerifier } = await googlePush();
    return traceCalls(
      new GooglePushVerifier({
        audience: s.pushAudience,
        serviceAccountEmail: s.pushServiceAccountEmail,
        packageName: s.packageName,
        ...(this.endpoints.googleCertsUrl ? { certsUrl: this.endpoints.googleCertsUrl } : {}),
      }),
      'google_play',
      ['verify'],
    );
  }
}

function pemBlocks(pem: string): Buffer[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map((b) => Buffer.from(b));
}
