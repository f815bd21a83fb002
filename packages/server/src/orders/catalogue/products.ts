import type { Updateable } from 'kysely';
import { AppError } from '../../errors/app-error.js';
import type { AppService } from '../../apps/apps.service.js';
import type { ProductsTable } from '../orders.tables.js';
import { checkCurrency, minorToNumber, toMinor } from '../money.js';
import type { Product, ProductCreateBody, ProductPatchBody } from './products.schemas.js';
import { TtlCache } from '../../cache/ttl-cache.js';
import type { CacheBus } from '../../cache/cache-bus.js';

import type { ProductRow, ProductsRepository } from './products.repository.js';

export type { ProductRow } from './products.repository.js';

/**
 * How long order placement trusts a product it looked up on this instance
 * (the same bound as the app cache, APP_CACHE_MS): a change made here is seen
 * at once (the entry is dropped), one made on another instance within this.
 */
export const PRODUCT_CACHE_MS = 2000;

/** Products and prices per app: code, name, unit price (minor units) and currency, store SKU per store channel. */
export class ProductService {
  /** Active products by appId and code (null: none), for order placement; see PRODUCT_CACHE_MS. */
  readonly #cache: TtlCache<string, ProductRow | null>;

  constructor(
    private readonly products: ProductsRepository,
    private readonly apps: AppService,
    private readonly now: () => number = Date.now,
    cacheBus?: CacheBus,
  ) {
    this.#cache = new TtlCache(PRODUCT_CACHE_MS, now, undefined, cacheBus && { scope: 'products', bus: cacheBus });
  }

  async create(appId: number, body: ProductCreateBody): Promise<Product> {
    await this.apps.get(appId);
    const currency = checkCurrency('currency', body.currency);
    const price = toMinor('price', body.price, currency);
    const now = this.now();
    const row = await this.products.insert({
      app_id: appId,
      product_code: body.productCode,
      name: body.name,
      price_minor: price,
      currency,
      channel_skus: JSON.stringify(body.channelSkus ?? {}),
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    if (!row) throw new AppError('CONFLICT', `productCode: ${body.productCode} already exists in app ${appId}`);
    this.#cache.delete(cacheKey(appId, body.productCode));
    return toProduct(row);
  }

  async update(appId: number, productCode: string, patch: ProductPatchBody): Promise<Product> {
    const current = await this.get(appId, productCode);
    const changes: Updateable<ProductsTable> = { updated_at: this.now() };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.price !== undefined) changes.price_minor = toMinor('price', patch.price, current.currency);
    if (patch.channelSkus !== undefined) changes.channel_skus = JSON.stringify(patch.channelSkus);
    if (patch.status !== undefined) changes.status = patch.status;
    const row = await this.products.update(appId, productCode, changes);
    this.#cache.delete(cacheKey(appId, productCode));
    return toProduct(row);
  }

  async list(appId: number): Promise<Product[]> {
    await this.apps.get(appId);
    return (await this.products.ofApp(appId)).map(toProduct);
  }

  async get(appId: number, productCode: string): Promise<Product> {
    await this.apps.get(appId); // an unknown app is 404 for the app, not for the product
    const row = await this.products.get(appId, productCode);
    if (!row) throw new AppError('NOT_FOUND', `product ${productCode} does not exist in app ${appId}`);
    return toProduct(row);
  }

  /** The active products of an app among `codes`, by code (order placement; cached, see PRODUCT_CACHE_MS). */
  async activeByCodes(appId: number, codes: string[]): Promise<Map<string, ProductRow>> {
    const readAt = this.now();
    const found = new Map<string, ProductRow>();
    const missing: string[] = [];
    for (const code of codes) {
      const hit = this.#cache.get(cacheKey(appId, code));
      if (!hit) missing.push(code);
      else if (hit.value) found.set(code, hit.value);
    }
    if (missing.length === 0) return found;
    const rows = await this.products.activeByCodes(appId, missing);
    for (const code of missing) {
      const row = rows.find((r) => r.product_code === code) ?? null;
      this.#cache.set(cacheKey(appId, code), row, readAt);
      if (row) found.set(code, row);
    }
    return found;
  }
}

function cacheKey(appId: number, code: string): string {
  return `${appId}\u0000${code}`;
}

export function channelSkusOf(row: ProductRow): Record<string, string> {
  return JSON.parse(row.channel_skus) as Record<string, string>;
}

function toProduct(row: ProductRow): Product {
  return {
    appId: row.app_id,
    productCode: row.product_code,
    name: row.name,
    price: minorToNumber(row.price_minor, row.currency),
    priceMinor: row.price_minor,
    currency: row.currency,
    channelSkus: channelSkusOf(row),
    status: row.status as Product['status'],
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
