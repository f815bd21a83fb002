import type { TestService } from './service.js';

/**
 * Helpers of the race tests (issue 39): many rounds, each sending its racing messages at once, run `atOnce` rounds at
 * a time so a few hundred rounds keep a test's wall time reasonable.
 */
export async function inBatches<T>(rounds: number, atOnce: number, round: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < rounds; start += atOnce) {
    const batch = Array.from({ length: Math.min(atOnce, rounds - start) }, (_, k) => round(start + k));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

/** The 2.4 and 2.5 notifications an app's outbox holds, counted by the order they tell of (trxNo, originalTrxNo). */
export async function gameNotifications(
  svc: TestService,
  appId: number,
): Promise<{ payments: Map<number, number>; refunds: Map<number, number> }> {
  const rows = await svc.services.database.db
    .selectFrom('outbox')
    .select(['type', 'body'])
    .where('app_id', '=', appId)
    .where('type', 'in', ['payment', 'refund'])
    .execute();
  const payments = new Map<number, number>();
  const refunds = new Map<number, number>();
  for (const r of rows) {
    const body = JSON.parse(r.body) as { trxNo: number; originalTrxNo?: number };
    const [map, trxNo] = r.type === 'payment' ? [payments, body.trxNo] : [refunds, body.originalTrxNo!];
    map.set(trxNo, (map.get(trxNo) ?? 0) + 1);
  }
  return { payments, refunds };
}
