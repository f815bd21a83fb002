import type { Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { DAY_MS } from '../../db/time-buckets.js';
import { groupBy } from '../../db/group-by.js';
import { invalidParameter } from '../../errors/app-error.js';
import { decodeCursor, encodeCursor, parseLimit, parseTime } from '../../http/admin-query.js';
import { checkCurrency, minorToNumber } from '../money.js';
import {
  pendingSupplementCounts,
  refundedByCurrency,
  topRefunders,
  webRefundCounts,
  type RefunderCursor,
  type RefundWindow,
} from './refund-abuse.queries.js';
import type { RefundAbuseQuery, Refunders } from './refund-abuse.schemas.js';

export const REFUNDERS_DEFAULT_WINDOW_MS = 30 * DAY_MS;
/** The longest window one read groups: a year and a day of one app's refunds. */
export const REFUNDERS_MAX_WINDOW_MS = 366 * DAY_MS;
const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;

const isCursor = (v: unknown): v is { n: number; a: number; u: string } => {
  const c = v as { n?: unknown; a?: unknown; u?: unknown } | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    Number.isSafeInteger(c.n) &&
    typeof c.a === 'number' &&
    Number.isFinite(c.a) &&
    typeof c.u === 'string' &&
    c.u.length <= 64 &&
    !/[\0\uD800-\uDFFF]/u.test(c.u)
  );
};

/** A checked query: the refunds looked at, where the page starts, how many players. */
export interface RefundersQuery {
  window: RefundWindow;
  after?: RefunderCursor;
  limit: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Refund abuse in sight (issue 27): the players of one app with the most refunds in a window, with what they had
 * refunded per currency, the supplements they owe now (4.5) and their last refund. The console and the studio
 * portal show it; each caller has checked the app (unknown: 404, another studio's: 404).
 */
export class RefundAbuse {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every parameter checked (400 naming it) before anything is read. */
  parse(appId: number, q: RefundAbuseQuery): RefundersQuery {
    const to = q.to === undefined ? this.now() : parseTime('to', q.to);
    const from = q.from === undefined ? to - REFUNDERS_DEFAULT_WINDOW_MS : parseTime('from', q.from);
    if (from >= to) throw invalidParameter('from', 'must be before to');
    if (to - from > REFUNDERS_MAX_WINDOW_MS) throw invalidParameter('from', 'the window is at most 366 days');
    const c = decodeCursor(q.cursor, isCursor);
    return {
      window: {
        appId,
        from,
        to,
        ...(q.currency === undefined ? {} : { currency: checkCurrency('currency', q.currency) }),
      },
      ...(c ? { after: { refunds: c.n, amountKey: c.a, userId: c.u } } : {}),
      limit: parseLimit('limit', q.limit, PAGE_DEFAULT, PAGE_MAX),
    };
  }

  /** One page of a parsed query (parse). */
  async refunders({ window, after, limit }: RefundersQuery): Promise<Refunders> {
    const appId = window.appId;
    const top = await topRefunders(this.db, window, after, limit);
    const users = top.map((r) => r.userId);
    const [amounts, pending, web] = await Promise.all([
      refundedByCurrency(this.db, window, users),
      pendingSupplementCounts(this.db, appId, users),
      webRefundCounts(this.db, window, users),
    ]);
    const byUser = groupBy(amounts, (a) => a.userId);
    const last = top.at(-1);
    return {
      appId,
      from: iso(window.from),
      to: iso(window.to),
      currency: window.currency ?? null,
      refunders: top.map((r) => ({
        userId: r.userId,
        refunds: r.refunds,
        webRefunds: web.get(r.userId)?.webRefunds ?? 0,
        disputesLost: web.get(r.userId)?.disputesLost ?? 0,
        refunded: (byUser.get(r.userId) ?? []).map((a) => ({
          currency: a.currency,
          amount: minorToNumber(a.minor, a.currency),
          refunds: a.refunds,
        })),
        pendingSupplements: pending.get(r.userId) ?? 0,
        lastRefundAt: iso(r.lastRefundAt),
      })),
      nextCursor:
        top.length === limit && last ? encodeCursor({ n: last.refunds, a: last.amountKey, u: last.userId }) : null,
    };
  }
}
