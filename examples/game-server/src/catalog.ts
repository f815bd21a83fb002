/**
 * What each product the platform sells for this game grants, and its purchase
 * limit per role (judged by the pre-order check, 4.10, and counted from granted,
 * unrefunded payments).
 */

export interface Product {
  /** Item name -> count granted per unit bought. */
  items: Readonly<Record<string, number>>;
  /** Most units one role may hold bought (unrefunded); null: no limit. */
  limitPerRole: number | null;
}

export type Catalog = ReadonlyMap<string, Product>;

export const DEFAULT_CATALOG: Catalog = new Map<string, Product>([
  ['gems_100', { items: { gems: 100 }, limitPerRole: null }],
  ['gems_500', { items: { gems: 500 }, limitPerRole: null }],
  ['starter_pack', { items: { gems: 50, sword: 1 }, limitPerRole: 1 }],
]);

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/** `{"<productCode>": {"items": {"<item>": n}, "limitPerRole": n | null}}` -> Catalog, or a message naming the field. */
export function parseCatalog(v: unknown): Catalog | string {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'must be an object of products';
  const catalog = new Map<string, Product>();
  for (const [code, p] of Object.entries(v as Record<string, unknown>)) {
    if (p === null || typeof p !== 'object' || Array.isArray(p)) return `${code}: must be an object`;
    const { items, limitPerRole } = p as Record<string, unknown>;
    if (items === null || typeof items !== 'object' || Array.isArray(items) || Object.keys(items).length === 0) {
      return `${code}.items: must be a non-empty object of item counts`;
    }
    for (const [item, n] of Object.entries(items))
      if (!isCount(n)) return `${code}.items.${item}: must be a positive whole number`;
    if (limitPerRole !== undefined && limitPerRole !== null && !isCount(limitPerRole))
      return `${code}.limitPerRole: must be a positive whole number or null`;
    catalog.set(code, {
      items: items as Record<string, number>,
      limitPerRole: (limitPerRole as number | undefined) ?? null,
    });
  }
  return catalog;
}

/** The items granted for `quantity` units of each product line; lines of unknown products are returned apart. */
export function itemsFor(
  catalog: Catalog,
  lines: readonly { productCode: string; quantity: number }[],
): { items: Map<string, number>; unknown: string[] } {
  const items = new Map<string, number>();
  const unknown: string[] = [];
  for (const line of lines) {
    const product = catalog.get(line.productCode);
    if (!product) {
      unknown.push(line.productCode);
      continue;
    }
    for (const [item, n] of Object.entries(product.items)) items.set(item, (items.get(item) ?? 0) + n * line.quantity);
  }
  return { items, unknown };
}
