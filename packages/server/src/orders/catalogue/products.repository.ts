import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import type { Dialect } from '../../db/dialect.js';
import type { ProductsTable } from '../orders.tables.js';
import { rowByKey, updateWhere } from '../../db/by-key.js';

export type ProductRow = Selectable<ProductsTable>;

/** Every statement on `products` (migration 0006). */
export class ProductsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
  ) {}

  /** The new row, or null when the app already has a product of that code. */
  async insert(row: Insertable<ProductsTable>): Promise<ProductRow | null> {
    try {
      return await this.db.insertInto('products').values(row).returningAll().executeTakeFirstOrThrow();
    } catch (err) {
      if (this.dialect.isUniqueViolation(err)) return null;
      throw err;
    }
  }

  update(appId: number, productCode: string, changes: Updateable<ProductsTable>): Promise<ProductRow> {
    const key = { app_id: appId, product_code: productCode };
    return updateWhere(this.db, 'products', key, changes).returningAll().executeTakeFirstOrThrow();
  }

  ofApp(appId: number): Promise<ProductRow[]> {
    return this.db.selectFrom('products').selectAll().where('app_id', '=', appId).orderBy('product_code').execute();
  }

  get(appId: number, productCode: string): Promise<ProductRow | undefined> {
    return rowByKey(this.db, 'products', { app_id: appId, product_code: productCode });
  }

  /** The active products of an app among `codes`. */
  activeByCodes(appId: number, codes: string[]): Promise<ProductRow[]> {
    return this.db
      .selectFrom('products')
      .selectAll()
      .where('app_id', '=', appId)
      .where('product_code', 'in', codes)
      .where('status', '=', 'active')
      .execute();
  }
}
