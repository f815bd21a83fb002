import crypto from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import type { RelaxedWriter } from '../db/database.js';
import type { OrdersTable } from './orders.tables.js';
import { notifyGame } from './notify-game.js';
import { currentTraceparent, inSpan, tracingOn } from '../tracing/tracing.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import {
  paymentFields,
  type ChannelEvent,
  type ChannelRegistry,
  type PaymentContext,
  type PaymentStart,
  type PaymentStep,
  type WebPayer,
} from './payments/channels/channel.js';
import { Channel, MAX_QUANTITY, OrderStatus, TrxType, isStoreChannel } from './enums.js';
import { MAX_MINOR } from './money.js';
import { OrdersRepository, type ItemRow, type OrderFilter, type OrderRow } from './orders.repository.js';
import { PlacementClaims, type OrderRef } from './placement/placement-claims.js';
import { PlacementOnce, type Ordered } from './placement/placement-once.js';
import { PlacementWrites } from './placement/placement-writes.js';
import { toOrder, type Order } from './orders.view.js';
import { channelSkusOf, type ProductService } from './catalogue/products.js';
import { assertTransition } from './status.js';
import { toStatusChange, type StatusChange } from './status-history.js';
import type { PendingSupplement } from './notifications.schemas.js';

/** An order to place, whoever places it (the client API, the sandbox web payment page). */
export interface PlaceOrderInput {
  appId: number;
  userId: string;
  /** client: the game client through the SDK; web_page: the official web payment page (2.4 rule 3). */
  origin: 'client' | 'web_page';
  /** The client's orderId (becomes outTrxNo); null when it gave none. */
  orderId: string | null;
  products: Array<{ productCode: string; quantity: number }>;
  gameServerId: string | null;
  gameRoleId: string | null;
  gameExt: string | null;
  platform: number;
  channel: number;
  paymentType: number;
  /** Several iOS store receipts merged into this order (2.4 rules 3, 9). */
  mergedReceipts: boolean;
  sdkVersion: string | null;
  /** Country of the placing client's IP (edge header; DF when none). */
  ipCountry: string | null;
  /** The region the player chose (web payment without region lock). */
  chosenRegion: string | null;
  /** The player's registration region (web payment with region lock). */
  registrationRegion: string | null;
  /** Where a provider-hosted payment page sends the browser back (the web payment page's, validated there). */
  returnUrl?: string | null;
  /** The web payment page's payer (device, language, IP, base URL), for the provider that opens the payment. */
  web?: WebPayer;
}

export interface PlacedOrder {
  order: Order;
  /** What the client needs to pay, flat (kept for clients); null when this was an earlier order answered again. */
  payment: Record<string, string> | null;
  /** The same as a typed step (redirect, hosted, store); null with `payment`. */
  paymentStep: PaymentStep | null;
  /** false: the same request was placed before (2.4 rule 5) and that order is answered. */
  created: boolean;
}

/** How long a settled or dead claim is kept after its lease ended (placement-claims.ts). */
export const CLAIM_RETENTION_MS = 10 * 60_000;

interface Prepared {
  outTrxNo: string;
  clientGivenOrderId: boolean;
  digest: string;
  currency: string;
  totalMinor: number;
  region: string;
  items: Array<{ product_code: string; quantity: number; unit_price_minor: number; channel_sku_code: string }>;
}

/**
 * Orders: placement (deduplicated by appId + outTrxNo, 2.4 rule 5), the
 * payment outcomes reported by the channels and the status machine (2.7,
 * status.ts). A successful payment writes its notification (2.4) to the
 * outbox in the same transaction as the status change.
 */
export class OrderService {
  /** Refunds are handled by the refund service; set by orders.module.ts (the two refer to each other). */
  onRefund: ((event: Extract<ChannelEvent, { kind: 'refunded' }>) => Promise<Order>) | null = null;
  private readonly writes: PlacementWrites;
  private readonly claims: PlacementClaims;
  private readonly once: PlacementOnce;
  private readonly repo: OrdersRepository;
  private readonly readsRepo: OrdersRepository;

  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
    private readonly products: ProductService,
    private readonly channels: ChannelRegistry,
    private readonly opts: {
      webRegionLock: (appId: number) => Promise<boolean>;
      /**
       * The pending supplements (4.5) that stop a new store order of this player in this app: the player's, when the
       * app turned on refuseStoreOrdersInArrears, else none.
       */
      arrearsBlocking?: (appId: number, userId: string) => Promise<PendingSupplement[]>;
      /** GAME_CALL_TIMEOUT_MS: bounds how long a placement may hold its claim (leaseMs). */
      gameCallTimeoutMs: number;
      /** Writes that need not wait for the disk: the placement claims (placement-claims.ts). */
      relaxed: RelaxedWriter;
      /** The orders' SQL over db (the module builds it once). */
      repo: OrdersRepository;
      /** Where `find` (the operator's and studio's order lists) reads: over Database.reads, the read replica; default repo. */
      readsRepo?: OrdersRepository;
    },
    private readonly now: () => number = Date.now,
  ) {
    this.writes = new PlacementWrites(db, dialect);
    this.claims = new PlacementClaims(db, dialect, opts.relaxed);
    this.once = new PlacementOnce(this.claims, now);
    this.repo = opts.repo;
    this.readsRepo = opts.readsRepo ?? opts.repo;
  }

  /**
   * Validates without writing, then answers an earlier identical order, or
   * runs `checks` (the game's role query and pre-order check for client
   * orders) and creates the order and opens its payment at the channel.
   * With checks and a client orderId, identical placements at once (on any
   * instance) run the checks once and share their outcome (placement-once.ts).
   */
  async place(input: PlaceOrderInput, checks?: () => Promise<void>): Promise<PlacedOrder> {
    const prepared = await this.prepare(input);
    // A new order only: an earlier identical order is answered as it was; the arrears come before the game (4.8, 4.10).
    const attempt = async () => {
      await this.refuseInArrears(input);
      if (checks) await checks();
    };
    if (prepared.clientGivenOrderId && checks) return this.placeOnce(input, prepared, attempt);
    if (prepared.clientGivenOrderId) {
      const earlier = await this.writes.byOutTrxNo(input.appId, prepared.outTrxNo);
      if (earlier) return this.sameOrder(earlier, prepared);
    }
    await attempt();
    return this.createAndOpen(input, prepared);
  }

  /**
   * A store order (channel 1 or 2) of a player who owes a pending supplement (4.5) is refused when the app asks for
   * it (refuseStoreOrdersInArrears): the player is told to complete the supplement first. Web orders are not
   * (docs/orders.md, "Refund abuse in sight").
   */
  private async refuseInArrears(input: PlaceOrderInput): Promise<void> {
    if (!isStoreChannel(input.channel) || !this.opts.arrearsBlocking) return;
    const list = await this.opts.arrearsBlocking(input.appId, input.userId);
    if (list.length === 0) return;
    throw new AppError(
      'SUPPLEMENT_PENDING',
      `user ${input.userId} owes ${list.length} pending supplement order(s) of store refunds (4.5: tradeNo ${list.map((s) => s.tradeNo).join(', ')}); this app refuses new store orders until they are paid`,
      { data: { list } },
    );
  }

  /** Deletes placement claims whose lease ended more than CLAIM_RETENTION_MS before `now` (boot.ts, every minute). */
  purgeClaims(now: number): Promise<number> {
    return this.claims.purge(now - CLAIM_RETENTION_MS);
  }

  /**
   * The claim's lease: every game call of the placement (the role query and
   * one pre-order check per product line) tried twice (8), each try up to
   * GAME_CALL_TIMEOUT_MS, plus 5 s to sign the calls and write the order.
   */
  leaseMs(lines: number): number {
    return 2 * (1 + lines) * this.opts.gameCallTimeoutMs + 5000;
  }

  /**
   * A client orderId with the game's checks: the first of identical
   * placements runs the checks and creates the order; the others answer its
   * order (`created: false`) or its failure, without asking the game.
   */
  private async placeOnce(
    input: PlaceOrderInput,
    prepared: Prepared,
    checks: () => Promise<void>,
  ): Promise<PlacedOrder> {
    /** The attempt's order, with this placement's own answer (created) or why that failed after the order was written. */
    type Attempted = Ordered & { placed?: PlacedOrder; error?: unknown };
    const key = { appId: input.appId, outTrxNo: prepared.outTrxNo };
    const { settled, own } = await this.once.once<Attempted>(
      key,
      prepared.digest,
      this.leaseMs(input.products.length),
      async () => {
        await checks();
        const created = await this.writes.create(this.orderRow(input, prepared), prepared.items);
        if (!created) {
          // Another placement's order holds the orderId (one whose claim was taken over while it still ran).
          const winner = await this.winner(input.appId, prepared.outTrxNo);
          return { kind: 'order', trxNo: winner.trx_no, digest: winner.request_digest };
        }
        const ordered = { kind: 'order', trxNo: created.row.trx_no, digest: prepared.digest } as const;
        try {
          const opened = await this.openPayment(created.row, created.items, paymentContext(input));
          return { ...ordered, placed: { ...opened, created: true } };
        } catch (error) {
          // The order exists (failed by its channel): the others answer it, this placement answers why.
          return { ...ordered, error };
        }
      },
    );
    if (settled.kind === 'failed') throw settled.error;
    const attempted: Attempted = settled;
    if (own && 'error' in attempted) throw attempted.error;
    if (own && attempted.placed) return attempted.placed;
    return this.sameOrder({ trx_no: settled.trxNo, request_digest: settled.digest }, prepared, attempted.placed?.order);
  }

  /** Creates the order and opens its payment; when another placement's order holds the orderId, answers that one. */
  private async createAndOpen(input: PlaceOrderInput, prepared: Prepared): Promise<PlacedOrder> {
    const created = await this.writes.create(this.orderRow(input, prepared), prepared.items);
    if (!created) {
      // The same outTrxNo placed concurrently: the unique key let one through (committed by now); answer that one.
      return this.sameOrder(await this.winner(input.appId, prepared.outTrxNo), prepared);
    }
    return { ...(await this.openPayment(created.row, created.items, paymentContext(input))), created: true };
  }

  private async winner(appId: number, outTrxNo: string): Promise<OrderRow> {
    const winner = await this.writes.byOutTrxNo(appId, outTrxNo);
    if (!winner) throw new Error(`order ${outTrxNo} of app ${appId} conflicted but cannot be found`);
    return winner;
  }

  private orderRow(input: PlaceOrderInput, prepared: Prepared): Insertable<OrdersTable> {
    const now = this.now();
    return {
      app_id: input.appId,
      user_id: input.userId,
      trx_type: TrxType.PAYMENT,
      out_trx_no: prepared.outTrxNo,
      original_trx_no: null,
      status: OrderStatus.CREATED,
      platform: input.platform,
      channel: input.channel,
      payment_type: input.paymentType,
      currency: prepared.currency,
      total_minor: prepared.totalMinor,
      region: prepared.region,
      client_amount_minor: null,
      client_currency: null,
      client_region: null,
      bank_trx_no: null,
      game_server_id: input.gameServerId,
      game_role_id: input.gameRoleId,
      game_ext: input.gameExt,
      origin: input.origin,
      merged_receipts: input.mergedReceipts ? 1 : 0,
      sdk_version: input.sdkVersion,
      ip_country: input.ipCountry,
      request_digest: prepared.digest,
      notify_event_id: null,
      failure_reason: null,
      created_at: now,
      updated_at: now,
      success_time: null,
      // The placement's trace: the order's notifications join it (notify-game.ts); null without tracing.
      trace_parent: currentTraceparent(),
    };
  }

  /**
   * 1 -> 2: opens the payment at the channel (a compare-and-set shared with
   * concurrent placements); 1 -> 3 when the channel refuses. The answer is
   * built from the row written and `items` when the caller has them (no read back).
   */
  async openPayment(
    row: OrderRow,
    items?: ItemRow[],
    ctx: PaymentContext = { returnUrl: null },
  ): Promise<{ order: Order; payment: Record<string, string>; paymentStep: PaymentStep }> {
    const adapter = (await this.channels.forChannel(row.channel, row.app_id, row.origin))!;
    const lines = items ?? (await this.repo.items(row.trx_no));
    let start: PaymentStart;
    try {
      // A provider's API call, traced as a client span when tracing is on.
      start = tracingOn
        ? await inSpan(`payment channel ${adapter.name}.startPayment`, { kind: 'client' }, () =>
            adapter.startPayment(row, lines, ctx),
          )
        : await adapter.startPayment(row, lines, ctx);
    } catch (err) {
      await this.repo.setStatus(row.trx_no, OrderStatus.CREATED, {
        status: OrderStatus.FAILED,
        failure_reason: `channel ${adapter.name}: ${(err as Error).message}`,
        updated_at: this.now(),
      });
      // An adapter's own refusal (a provider that cannot be reached: 50250) is answered as it is.
      if (err instanceof AppError) throw err;
      throw new AppError('UNAVAILABLE', `the payment channel could not open the payment of order ${row.trx_no}`, {
        cause: err,
      });
    }
    const opened = await this.writes.open(row.trx_no, start.bankTrxNo, this.now());
    if (!opened) assertTransition(row.trx_no, (await this.row(row.trx_no)).status, OrderStatus.AWAITING_PAYMENT);
    return { order: toOrder(opened!, lines), payment: paymentFields(start.step), paymentStep: start.step };
  }

  /** Applies what a channel reported: paid (2 -> 0 and the 2.4 notification), failed (2 -> 3), refunded. */
  async applyChannelEvent(event: ChannelEvent): Promise<Order> {
    if (event.kind === 'refunded') {
      if (!this.onRefund) throw new Error('refunds are not wired');
      return this.onRefund(event);
    }
    const order = await this.row(event.trxNo);
    if (event.kind === 'failed') {
      const updated = await this.repo.setStatus(order.trx_no, OrderStatus.AWAITING_PAYMENT, {
        status: OrderStatus.FAILED,
        failure_reason: event.reason,
        updated_at: this.now(),
      });
      if (!updated) assertTransition(order.trx_no, (await this.row(order.trx_no)).status, OrderStatus.FAILED);
      return this.get(order.trx_no);
    }
    if (event.client && !isStoreChannel(order.channel)) {
      throw invalidParameter(
        'clientAmount',
        `is reported only for the two store payments (channel 1 or 2), not channel ${order.channel} (2.4)`,
      );
    }
    await this.db.transaction().execute(async (trx) => {
      const now = this.now();
      const client = event.client;
      const orders = new OrdersRepository(trx);
      const paid = await orders.setStatus(order.trx_no, OrderStatus.AWAITING_PAYMENT, {
        status: OrderStatus.SUCCEEDED,
        success_time: now,
        updated_at: now,
        bank_trx_no: event.bankTrxNo ?? order.bank_trx_no,
        client_amount_minor: client?.amountMinor ?? null,
        client_currency: client?.currency ?? null,
        client_region: client && !event.mergedReceipts ? clientRegionOf(order, client.region) : null,
        ...(event.mergedReceipts ? { merged_receipts: 1 } : {}),
      });
      if (!paid) {
        assertTransition(order.trx_no, (await orders.byTrxNo(order.trx_no))!.status, OrderStatus.SUCCEEDED);
        return;
      }
      await event.alsoWrite?.(trx);
      if (paid.trx_type === TrxType.SUPPLEMENT) {
        // 2.5 rule 3: a paid supplement is recorded, and no payment notification is sent.
        await orders.markSupplemented(paid.trx_no, now);
        return;
      }
      const items = await orders.items(paid.trx_no);
      await notifyGame(trx, 'payment', paid, items, now);
    });
    return this.get(order.trx_no);
  }

  /** 1 or 2 -> 4. */
  async cancel(trxNo: number, reason: string): Promise<Order> {
    const order = await this.row(trxNo);
    let updated: OrderRow | undefined;
    for (const from of [OrderStatus.CREATED, OrderStatus.AWAITING_PAYMENT]) {
      updated ??= await this.repo.setStatus(trxNo, from, {
        status: OrderStatus.CANCELLED,
        failure_reason: reason,
        updated_at: this.now(),
      });
    }
    if (!updated) assertTransition(trxNo, (await this.row(order.trx_no)).status, OrderStatus.CANCELLED);
    return this.get(trxNo);
  }

  async get(trxNo: number): Promise<Order> {
    const row = await this.row(trxNo);
    return toOrder(row, await this.repo.items(trxNo));
  }

  /** The refund order of a refunded payment, if any. */
  async refundOf(trxNo: number): Promise<Order | null> {
    const row = await this.repo.refundOf(trxNo);
    return row ? this.get(row.trx_no) : null;
  }

  /** Every refund order of a payment, oldest first (a web payment may be refunded in parts). */
  async refundsOf(trxNo: number): Promise<Order[]> {
    return Promise.all((await this.repo.refundsOf(trxNo)).map((r) => this.get(r.trx_no)));
  }

  /** The statuses the order went through, oldest first. */
  async statusHistory(trxNo: number): Promise<StatusChange[]> {
    return (await this.repo.statusChanges(trxNo)).map(toStatusChange);
  }

  /** The order's lines (a store order holds one). */
  items(trxNo: number): Promise<ItemRow[]> {
    return this.repo.items(trxNo);
  }

  async row(trxNo: number): Promise<OrderRow> {
    const row = await this.repo.byTrxNo(trxNo);
    if (!row) throw new AppError('NOT_FOUND', `order ${trxNo} does not exist`);
    return row;
  }

  async find(q: OrderFilter): Promise<Order[]> {
    const rows = await this.readsRepo.find(q);
    const items = await this.readsRepo.itemsOf(rows.map((r) => r.trx_no));
    return rows.map((r) => toOrder(r, items.get(r.trx_no) ?? []));
  }

  /** The earlier order of the same orderId answered again (`view`: as its placement answered it, when at hand). */
  private async sameOrder(earlier: OrderRef, prepared: Prepared, view?: Order): Promise<PlacedOrder> {
    if (earlier.request_digest !== prepared.digest) {
      throw new AppError(
        'OUT_TRX_NO_CONFLICT',
        `orderId ${JSON.stringify(prepared.outTrxNo)} was already used for order ${earlier.trx_no} with different contents (2.4 rule 5)`,
        { data: { trxNo: earlier.trx_no } },
      );
    }
    return { order: view ?? (await this.get(earlier.trx_no)), payment: null, paymentStep: null, created: false };
  }

  /** Refuses a channel no adapter takes for this app (the stores' when the app enabled them; the sandbox when enabled). */
  async requireChannel(channel: number, appId: number, origin = 'client'): Promise<void> {
    if (!(await this.channels.forChannel(channel, appId, origin)))
      throw invalidParameter('channel', `no payment channel is available for channel ${channel}`);
  }

  /** Every check that needs no game and writes nothing. */
  private async prepare(input: PlaceOrderInput): Promise<Prepared> {
    await this.requireChannel(input.channel, input.appId, input.origin);
    const store = isStoreChannel(input.channel);
    if (input.mergedReceipts && input.channel !== Channel.IOS_STORE)
      throw invalidParameter('mergedReceipts', 'only iOS store receipts are merged (channel 1)');
    if (input.products.length === 0) throw invalidParameter('products', 'must hold at least one product');
    // A store transaction is for one SKU; several products are for web orders (2.4 rule 6).
    if (store && input.products.length > 1)
      throw invalidParameter('products', 'a store payment (channel 1 or 2) holds exactly one product');
    const codes = new Set<string>();
    input.products.forEach((p, i) => {
      if (!Number.isSafeInteger(p.quantity) || p.quantity < 1 || p.quantity > MAX_QUANTITY) {
        throw invalidParameter(`products.${i}.quantity`, `must be a whole number from 1 to ${MAX_QUANTITY}`);
      }
      if (codes.has(p.productCode))
        throw invalidParameter(`products.${i}.productCode`, `${p.productCode} is listed twice; give its quantity once`);
      codes.add(p.productCode);
    });
    const found = await this.products.activeByCodes(input.appId, [...codes]);
    let currency: string | null = null;
    let total = 0;
    const items = input.products.map((p, i) => {
      const product = found.get(p.productCode);
      if (!product)
        throw new AppError(
          'UNKNOWN_PRODUCT',
          `products.${i}.productCode: ${p.productCode} is not an active product of app ${input.appId}`,
        );
      const sku = store ? channelSkusOf(product)[String(input.channel)] : '';
      if (sku === undefined)
        throw new AppError(
          'UNKNOWN_PRODUCT',
          `products.${i}.productCode: ${p.productCode} has no store SKU for channel ${input.channel}`,
        );
      if (currency !== null && product.currency !== currency) {
        throw invalidParameter(
          `products.${i}.productCode`,
          `is priced in ${product.currency}, the order in ${currency}; one order has one currency`,
        );
      }
      currency = product.currency;
      total += product.price_minor * p.quantity;
      if (!Number.isSafeInteger(total) || total > MAX_MINOR)
        throw invalidParameter('products', 'the order total is too large');
      return {
        product_code: p.productCode,
        quantity: p.quantity,
        unit_price_minor: product.price_minor,
        channel_sku_code: sku,
      };
    });
    const generate = input.orderId === null || input.mergedReceipts || input.origin === 'web_page';
    return {
      outTrxNo: generate ? crypto.randomUUID().replaceAll('-', '') : input.orderId!,
      clientGivenOrderId: !generate,
      digest: digestOf(input),
      currency: currency!,
      totalMinor: total,
      region: await this.regionOf(input, store),
      items,
    };
  }

  /** 2.4 rule 8. */
  private async regionOf(input: PlaceOrderInput, store: boolean): Promise<string> {
    if (store) return input.ipCountry ?? 'DF';
    if (await this.opts.webRegionLock(input.appId)) return input.registrationRegion ?? 'DF';
    return input.chosenRegion ?? input.ipCountry ?? 'DF';
  }
}

/** 2.4 rule 9: empty for merged iOS receipts and for iOS SDKs below 6.8.1 (web payments carry no client fields at all). */
function clientRegionOf(order: OrderRow, reported: string | null): string | null {
  if (order.merged_receipts === 1) return null;
  if (
    order.channel === Channel.IOS_STORE &&
    order.sdk_version !== null &&
    compareVersions(order.sdk_version, '6.8.1') < 0
  )
    return null;
  return reported;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** What makes two placements "the same request" (2.4 rule 5): everything but the transport. */
function digestOf(input: PlaceOrderInput): string {
  const canonical = JSON.stringify([
    input.userId,
    input.products.map((p) => [p.productCode, p.quantity]),
    input.gameServerId,
    input.gameRoleId,
    input.gameExt,
    input.platform,
    input.channel,
    input.paymentType,
  ]);
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

function paymentContext(input: PlaceOrderInput): PaymentContext {
  return { returnUrl: input.returnUrl ?? null, ...(input.web ? { web: input.web } : {}) };
}
