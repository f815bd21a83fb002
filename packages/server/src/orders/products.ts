import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { AppError } from '../errors/app-error.js';
import type { AppService } from '../apps/apps.service.js';
import type { ProductsTable } from './orders.tables.js';
import { checkCurrency, minorToNumber, toMinor } from './money.js';
import type { Product, ProductCreateBody, ProductPatchBody } from './products.schemas.js';

export type ProductRow = Selectable<ProductsTable>;

/** Products and prices per app: code, name, unit price (minor units) and currency, store SKU per store channel. */
export class ProductService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly apps: AppService,
    private readonly now: () => number = Date.now,
  ) {}

  async create(appId: number, body: ProductCreateBody): Promise<Product> {
    await this.apps.get(appId);
    const currency = checkCurrency('currency', body.currency);
    const price = toMinor('price', body.price, currency);
    const now = this.now();
    try {
      const row = await this.db.insertInto('products').values({
        app_id: appId,
        product_code: body.productCode,
        name: body.name,
        price_minor: price,
        currency,
        channel_skus: JSON.stringify(body.channelSkus ?? {}),
        status: 'active',
        created_at: now,
        updated_at: now,
      }).returningAll().executeTakeFirstOrThrow();
      return toProduct(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', `productCode: ${body.productCode} already exists in app ${appId}`);
      throw err;
    }
  }

  async update(appId: number, productCode: string, patch: ProductPatchBody): Promise<Product> {
    const current = await this.get(appId, productCode);
    const changes: Updateable<ProductsTable> = { updated_at: this.now() };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.price !== undefined) changes.price_minor = toMinor('price', patch.price, current.currency);
    if (patch.channelSkus !== undefined) changes.channel_skus = JSON.stringify(patch.channelSkus);
    if (patch.status !== undefined) changes.status = patch.status;
    const row = await this.db.updateTable('products').set(changes)
      .where('app_id', '=', appId).where('product_code', '=', productCode).returningAll().executeTakeFirstOrThrow();
    return toProduct(row);
  }

  async list(appId: number): Promise<Product[]> {
    await this.apps.get(appId);
    const rows = await this.db.selectFrom('products').selectAll().where('app_id', '=', appId).orderBy('product_code').execute();
    return rows.map(toProduct);
  }

  async get(appId: number, productCode: string): Promise<Product> {
    const row = await this.db.selectFrom('products').selectAll().where('app_id', '=', appId).where('product_code', '=', productCode).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `product ${productCode} does not exist in app ${appId}`);
    return toProduct(row);
  }

  /** The active products of an app among `codes`, by code (order placement). */
  async activeByCodes(db: Kysely<Tables>, appId: number, codes: string[]): Promise<Map<string, ProductRow>> {
    if (codes.length === 0) return new Map();
    const rows = await db.selectFrom('products').selectAll()
      .where('app_id', '=', appId).where('product_code', 'in', codes).where('status', '=', 'active').execute();
    return new Map(rows.map((r) => [r.product_code, r]));
  }
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
