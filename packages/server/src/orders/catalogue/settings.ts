import type { OrderSettingsRepository } from './settings.repository.js';
import type { AppService } from '../../apps/apps.service.js';
import { sharedTtlCache, type TtlCache } from '../../cache/ttl-cache.js';
import type { CacheBus } from '../../cache/cache-bus.js';

export interface OrderSettings {
  appId: number;
  /** 2.4 rule 8: web payments take the registration region (true) or the region the player chose (false). */
  webRegionLock: boolean;
  /**
   * Refuse new store orders (channels 1, 2) of a player who owes a pending supplement (4.5) in this app, before the
   * game is asked (SUPPLEMENT_PENDING); off by default (docs/orders.md "Refund abuse").
   */
  refuseStoreOrdersInArrears: boolean;
  /** Store purchases bound to their buyer (docs/stores.md "Purchases bound to their buyer"). */
  accountBinding: AccountBinding;
  /** The studio's statement that its players consented to consumption data going to Apple; null: off. */
  consumptionConsent: string | null;
  /** When the operator recorded the statement (ISO 8601). */
  consumptionConsentedAt: string | null;
  /** Apple refundPreference sent with consumption information; null: none. */
  refundPreference: RefundPreference | null;
}

export type AccountBinding = 'required' | 'when_present' | 'off';
export const ACCOUNT_BINDINGS: readonly AccountBinding[] = ['required', 'when_present', 'off'];
export type RefundPreference = 'DECLINE' | 'GRANT_FULL' | 'GRANT_PRORATED';
export const REFUND_PREFERENCES: readonly RefundPreference[] = ['DECLINE', 'GRANT_FULL', 'GRANT_PRORATED'];

/** A change of the settings: each field given is set, each left out keeps its value. */
export type OrderSettingsChange = Partial<Omit<OrderSettings, 'appId' | 'consumptionConsentedAt'>>;

/** How long an instance trusts the settings it read; a change made here is seen at once, elsewhere within this (as APP_CACHE_MS). */
export const SETTINGS_CACHE_MS = 2000;

/** Per-app order settings (absent row: defaults). */
export class OrderSettingsService {
  readonly #cache: TtlCache<number, OrderSettings>;

  constructor(
    private readonly settings: OrderSettingsRepository,
    private readonly apps: AppService,
    private readonly now: () => number = Date.now,
    cacheBus?: CacheBus,
  ) {
    this.#cache = sharedTtlCache(SETTINGS_CACHE_MS, now, 'order-settings', cacheBus);
  }

  async get(appId: number): Promise<OrderSettings> {
    const row = await this.settings.get(appId);
    return {
      appId,
      webRegionLock: row?.web_region_lock === 1,
      refuseStoreOrdersInArrears: row?.refuse_store_orders_in_arrears === 1,
      accountBinding: ACCOUNT_BINDINGS.includes(row?.account_binding as AccountBinding)
        ? (row!.account_binding as AccountBinding)
        : 'when_present',
      consumptionConsent: row?.consumption_consent ?? null,
      consumptionConsentedAt:
        row?.consumption_consented_at != null ? new Date(Number(row.consumption_consented_at)).toISOString() : null,
      refundPreference: REFUND_PREFERENCES.includes(row?.refund_preference as RefundPreference)
        ? (row!.refund_preference as RefundPreference)
        : null,
    };
  }

  async put(appId: number, change: OrderSettingsChange): Promise<OrderSettings> {
    await this.apps.get(appId);
    const flag = (v: boolean) => (v ? 1 : 0);
    await this.settings.put(
      appId,
      {
        ...(change.webRegionLock === undefined ? {} : { web_region_lock: flag(change.webRegionLock) }),
        ...(change.refuseStoreOrdersInArrears === undefined
          ? {}
          : { refuse_store_orders_in_arrears: flag(change.refuseStoreOrdersInArrears) }),
        ...(change.accountBinding === undefined ? {} : { account_binding: change.accountBinding }),
        ...(change.consumptionConsent === undefined
          ? {}
          : {
              consumption_consent: change.consumptionConsent,
              consumption_consented_at: change.consumptionConsent === null ? null : this.now(),
            }),
        ...(change.refundPreference === undefined ? {} : { refund_preference: change.refundPreference }),
      },
      this.now(),
    );
    this.#cache.delete(appId);
    return this.get(appId);
  }

  /** The settings order placement uses: cached per instance for SETTINGS_CACHE_MS. */
  cached(appId: number): Promise<OrderSettings> {
    return this.#cache.getOrLoad(appId, () => this.get(appId));
  }
}
