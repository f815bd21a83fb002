/**
 * `items` grouped by `key`, in order, each group holding `value(item)`:
 * the keys of a batch by app or by claim, the rows of a query by their
 * parent. (Map.groupBy groups but cannot map each item, which two callers need.)
 */
export function groupBy<T, K, V = T>(
  items: Iterable<T>,
  key: (item: T) => K,
  value: (item: T) => V = (item) => item as unknown as V,
): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(value(item));
    else groups.set(k, [value(item)]);
  }
  return groups;
}
