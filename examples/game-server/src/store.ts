/**
 * The game's own durable store (SQLite through better-sqlite3): roles, payments
 * keyed by `trxNo`, the items they granted, refunds, debts and cancellations.
 * Every change is one transaction, committed (synchronous=FULL) before the
 * platform gets its answer, so a repeated notification finds what the first did.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type {
  CancellationNotification,
  PaymentNotification,
  RefundNotification,
  UnknownNotification,
} from '@game-platform/sdk';
import { OrderStatus } from '@game-platform/sdk';
import { type Catalog, itemsFor } from './catalog.js';
import type { RoleInput } from './roles.js';
import { SCHEMA } from './store.schema.js';

export type Items = Record<string, number>;

/** Payment states: items granted; refunded (items revoked); never granted (the refund came first); not a success. */
export type PaymentState = 'granted' | 'refunded' | 'not_granted' | 'not_succeeded';
/** Refund states: applied to a granted payment; payment not seen yet; its payment granted nothing. */
export type RefundState = 'revoked' | 'awaiting_payment' | 'nothing_granted';

export interface GrantResult {
  /** false: this trxNo was recorded before (a repeated notification); nothing changed. */
  first: boolean;
  state: PaymentState;
  items: Items;
  /** Product codes of the payment that the catalog does not know (paid, nothing granted for them). */
  unknownProducts: string[];
}

export interface RefundResult {
  first: boolean;
  state: RefundState;
  revoked: Items;
  /** What the role no longer had (spent): recorded as debt. */
  owed: Items;
}

export interface RoleRow extends RoleInput {}

interface PaymentRow {
  trx_no: number;
  user_id: string;
  role_id: string;
  server_id: string;
  state: PaymentState;
}

const toItems = (rows: { item: string; quantity: number }[]): Items =>
  Object.fromEntries(rows.map((r) => [r.item, r.quantity]));

export class GameStore {
  readonly #db: Database.Database;

  private constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Opens (creating if needed) `<dataDir>/game.db`. */
  static open(dataDir: string): GameStore {
    fs.mkdirSync(dataDir, { recursive: true });
    const db = new Database(path.join(dataDir, 'game.db'));
    db.pragma('journal_mode = WAL');
    // Durable before we answer: a crash after a 200 must not lose a grant.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    return new GameStore(db);
  }

  close(): void {
    this.#db.close();
  }

  // ---- roles (4.8, 4.9) ----

  upsertRole(r: RoleInput, now = Date.now()): void {
    this.#db
      .prepare(
        `
      INSERT INTO roles (role_id, server_id, user_id, name, avatar, role_lv, server_name, created_at)
      VALUES (@roleId, @serverId, @userId, @name, @avatar, @roleLv, @serverName, @now)
      ON CONFLICT (role_id, server_id) DO UPDATE SET user_id = excluded.user_id, name = excluded.name,
        avatar = excluded.avatar, role_lv = excluded.role_lv, server_name = excluded.server_name
    `,
      )
      .run({ ...r, now });
  }

  role(roleId: string, serverId: string): RoleRow | undefined {
    const row = this.#db
      .prepare(`SELECT ${ROLE_COLUMNS} FROM roles WHERE role_id = ? AND server_id = ?`)
      .get(roleId, serverId);
    return row as RoleRow | undefined;
  }

  rolesOf(userId: string, serverId: string | null): RoleRow[] {
    const rows =
      serverId === null
        ? this.#db
            .prepare(`SELECT ${ROLE_COLUMNS} FROM roles WHERE user_id = ? ORDER BY created_at, role_id`)
            .all(userId)
        : this.#db
            .prepare(
              `SELECT ${ROLE_COLUMNS} FROM roles WHERE user_id = ? AND server_id = ? ORDER BY created_at, role_id`,
            )
            .all(userId, serverId);
    return rows as RoleRow[];
  }

  /** Units of a product the role holds from granted, unrefunded payments (the 4.10 purchase limit). */
  purchasedUnits(roleId: string, serverId: string, productCode: string): number {
    const row = this.#db
      .prepare(
        `
      SELECT COALESCE(SUM(pp.quantity), 0) AS n FROM payment_products pp JOIN payments p ON p.trx_no = pp.trx_no
      WHERE p.state = 'granted' AND p.role_id = ? AND p.server_id = ? AND pp.product_code = ?
    `,
      )
      .get(roleId, serverId, productCode) as { n: number };
    return row.n;
  }

  // ---- payments and refunds (2.4, 2.5) ----

  /**
   * Records a payment notification and grants its items, once per `trxNo` (2.4 rule 2).
   * The role is the order's `attach` (the client's game_role_id/game_server_id); without
   * attach the items go to the account (empty role and server).
   */
  recordPayment(n: PaymentNotification, catalog: Catalog, now = Date.now()): GrantResult {
    return this.#db
      .transaction((): GrantResult => {
        const seen = this.#payment(n.trxNo);
        if (seen) {
          const products = this.#db
            .prepare('SELECT product_code FROM payment_products WHERE trx_no = ? AND known = 0')
            .all(n.trxNo) as { product_code: string }[];
          return {
            first: false,
            state: seen.state,
            items: this.#paymentItems(n.trxNo),
            unknownProducts: products.map((p) => p.product_code),
          };
        }
        const earlyRefund = this.#db
          .prepare("SELECT trx_no FROM refunds WHERE original_trx_no = ? AND state = 'awaiting_payment'")
          .get(n.trxNo) as { trx_no: number } | undefined;
        const state: PaymentState =
          n.status !== OrderStatus.SUCCEEDED ? 'not_succeeded' : earlyRefund ? 'not_granted' : 'granted';
        const owner = { userId: n.userId, roleId: n.attach?.gameRoleId ?? '', serverId: n.attach?.gameServerId ?? '' };
        this.#db
          .prepare(
            `
        INSERT INTO payments (trx_no, notify_id, user_id, role_id, server_id, out_trx_no, total_amount, currency, state, received_at, body)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      `,
          )
          .run(
            n.trxNo,
            n.notifyId,
            owner.userId,
            owner.roleId,
            owner.serverId,
            n.outTrxNo,
            String(n.totalAmount),
            n.currency,
            state,
            now,
            JSON.stringify(n.raw),
          );
        const { items, unknown } = itemsFor(catalog, n.products);
        const addProduct = this.#db.prepare(
          'INSERT INTO payment_products (trx_no, line, product_code, quantity, known) VALUES (?, ?, ?, ?, ?)',
        );
        n.products.forEach((p, i) =>
          addProduct.run(n.trxNo, i, p.productCode, p.quantity, catalog.has(p.productCode) ? 1 : 0),
        );
        if (earlyRefund)
          this.#db.prepare("UPDATE refunds SET state = 'nothing_granted' WHERE trx_no = ?").run(earlyRefund.trx_no);
        if (state !== 'granted') return { first: true, state, items: {}, unknownProducts: unknown };
        const addItem = this.#db.prepare('INSERT INTO payment_items (trx_no, item, quantity) VALUES (?, ?, ?)');
        for (const [item, quantity] of items) {
          addItem.run(n.trxNo, item, quantity);
          this.#addInventory(owner, item, quantity);
        }
        return { first: true, state, items: Object.fromEntries(items), unknownProducts: unknown };
      })
      .immediate();
  }

  /**
   * Records a refund notification once per its own `trxNo` and takes back what the
   * original payment (`originalTrxNo`) granted; what was already spent becomes debt.
   */
  recordRefund(n: RefundNotification, now = Date.now()): RefundResult {
    return this.#db
      .transaction((): RefundResult => {
        const seen = this.#db.prepare('SELECT state FROM refunds WHERE trx_no = ?').get(n.trxNo) as
          { state: RefundState } | undefined;
        if (seen) {
          const rows = this.#db
            .prepare('SELECT item, revoked, owed FROM refund_items WHERE trx_no = ?')
            .all(n.trxNo) as { item: string; revoked: number; owed: number }[];
          return {
            first: false,
            state: seen.state,
            revoked: toItems(rows.map((r) => ({ item: r.item, quantity: r.revoked }))),
            owed: toItems(rows.filter((r) => r.owed > 0).map((r) => ({ item: r.item, quantity: r.owed }))),
          };
        }
        const payment = this.#payment(n.originalTrxNo);
        const state: RefundState = !payment
          ? 'awaiting_payment'
          : payment.state === 'granted'
            ? 'revoked'
            : 'nothing_granted';
        this.#db
          .prepare(
            `
        INSERT INTO refunds (trx_no, original_trx_no, notify_id, user_id, state, received_at, body) VALUES (?, ?, ?, ?, ?, ?, ?)
      `,
          )
          .run(n.trxNo, n.originalTrxNo, n.notifyId, n.userId, state, now, JSON.stringify(n.raw));
        if (state !== 'revoked' || !payment) return { first: true, state, revoked: {}, owed: {} };
        const owner = { userId: payment.user_id, roleId: payment.role_id, serverId: payment.server_id };
        const revoked: Items = {};
        const owed: Items = {};
        const addRefundItem = this.#db.prepare(
          'INSERT INTO refund_items (trx_no, item, revoked, owed) VALUES (?, ?, ?, ?)',
        );
        for (const [item, quantity] of Object.entries(this.#paymentItems(payment.trx_no))) {
          const have = this.#inventory(owner, item);
          const take = Math.min(have, quantity);
          if (take > 0) this.#addInventory(owner, item, -take);
          if (quantity > take) {
            this.#db
              .prepare(
                `
            INSERT INTO debts (user_id, role_id, server_id, item, quantity) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, role_id, server_id, item) DO UPDATE SET quantity = quantity + excluded.quantity
          `,
              )
              .run(owner.userId, owner.roleId, owner.serverId, item, quantity - take);
            owed[item] = quantity - take;
          }
          revoked[item] = take;
          addRefundItem.run(n.trxNo, item, take, quantity - take);
        }
        this.#db.prepare("UPDATE payments SET state = 'refunded' WHERE trx_no = ?").run(payment.trx_no);
        return { first: true, state, revoked, owed };
      })
      .immediate();
  }

  /** A notification of a trxType this game does not know (9): kept for later, never granted. */
  recordOther(n: UnknownNotification, now = Date.now()): boolean {
    const r = this.#db
      .prepare(
        'INSERT OR IGNORE INTO other_notifications (notify_id, trx_type, trx_no, received_at, body) VALUES (?, ?, ?, ?, ?)',
      )
      .run(n.notifyId, n.unknownTrxType, n.trxNo, now, JSON.stringify(n.raw));
    return r.changes === 1;
  }

  // ---- account cancellation (6) ----

  /**
   * Deletes the player's game data once per notification: roles, inventory, debts.
   * Payments and refunds stay as the game's ledger.
   */
  recordCancellation(c: CancellationNotification, now = Date.now()): { first: boolean; rolesRemoved: number } {
    return this.#db
      .transaction(() => {
        const r = this.#db
          .prepare('INSERT OR IGNORE INTO cancellations (notify_id, user_id, received_at, body) VALUES (?, ?, ?, ?)')
          .run(c.notifyId, c.userId, now, JSON.stringify(c.raw));
        if (r.changes === 0) return { first: false, rolesRemoved: 0 };
        const removed = this.#db.prepare('DELETE FROM roles WHERE user_id = ?').run(c.userId).changes;
        this.#db.prepare('DELETE FROM inventory WHERE user_id = ?').run(c.userId);
        this.#db.prepare('DELETE FROM debts WHERE user_id = ?').run(c.userId);
        return { first: true, rolesRemoved: removed };
      })
      .immediate();
  }

  // ---- in-game spending and the player's view (ops) ----

  /** Spends items of a role; false (nothing changed) when it has fewer. */
  spend(owner: { userId: string; roleId: string; serverId: string }, item: string, quantity: number): boolean {
    return this.#db
      .transaction(() => {
        if (this.#inventory(owner, item) < quantity) return false;
        this.#addInventory(owner, item, -quantity);
        return true;
      })
      .immediate();
  }

  player(userId: string) {
    const db = this.#db;
    const payments = db
      .prepare(
        'SELECT trx_no, role_id, server_id, state, total_amount, currency FROM payments WHERE user_id = ? ORDER BY received_at, trx_no',
      )
      .all(userId) as {
      trx_no: number;
      role_id: string;
      server_id: string;
      state: PaymentState;
      total_amount: string;
      currency: string;
    }[];
    const refunds = db
      .prepare('SELECT trx_no, original_trx_no, state FROM refunds WHERE user_id = ? ORDER BY received_at, trx_no')
      .all(userId) as {
      trx_no: number;
      original_trx_no: number;
      state: RefundState;
    }[];
    return {
      userId,
      roles: this.rolesOf(userId, null),
      inventory: db
        .prepare(
          'SELECT role_id AS roleId, server_id AS serverId, item, quantity FROM inventory WHERE user_id = ? AND quantity > 0 ORDER BY role_id, item',
        )
        .all(userId),
      debts: db
        .prepare(
          'SELECT role_id AS roleId, server_id AS serverId, item, quantity FROM debts WHERE user_id = ? AND quantity > 0 ORDER BY role_id, item',
        )
        .all(userId),
      payments: payments.map((p) => ({
        trxNo: p.trx_no,
        roleId: p.role_id,
        serverId: p.server_id,
        state: p.state,
        totalAmount: p.total_amount,
        currency: p.currency,
        products: db
          .prepare('SELECT product_code AS productCode, quantity FROM payment_products WHERE trx_no = ? ORDER BY line')
          .all(p.trx_no),
        items: this.#paymentItems(p.trx_no),
      })),
      refunds: refunds.map((r) => {
        const rows = db.prepare('SELECT item, revoked, owed FROM refund_items WHERE trx_no = ?').all(r.trx_no) as {
          item: string;
          revoked: number;
          owed: number;
        }[];
        return {
          trxNo: r.trx_no,
          originalTrxNo: r.original_trx_no,
          state: r.state,
          revoked: Object.fromEntries(rows.map((x) => [x.item, x.revoked])),
          owed: Object.fromEntries(rows.filter((x) => x.owed > 0).map((x) => [x.item, x.owed])),
        };
      }),
    };
  }

  counts(): { payments: number; refunds: number; cancellations: number; otherNotifications: number } {
    const n = (table: string) => (this.#db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      payments: n('payments'),
      refunds: n('refunds'),
      cancellations: n('cancellations'),
      otherNotifications: n('other_notifications'),
    };
  }

  // ---- helpers (inside the callers' transactions) ----

  #payment(trxNo: number): PaymentRow | undefined {
    return this.#db
      .prepare('SELECT trx_no, user_id, role_id, server_id, state FROM payments WHERE trx_no = ?')
      .get(trxNo) as PaymentRow | undefined;
  }

  #paymentItems(trxNo: number): Items {
    return toItems(
      this.#db.prepare('SELECT item, quantity FROM payment_items WHERE trx_no = ? ORDER BY item').all(trxNo) as {
        item: string;
        quantity: number;
      }[],
    );
  }

  #inventory(o: { userId: string; roleId: string; serverId: string }, item: string): number {
    const row = this.#db
      .prepare('SELECT quantity FROM inventory WHERE user_id = ? AND role_id = ? AND server_id = ? AND item = ?')
      .get(o.userId, o.roleId, o.serverId, item) as { quantity: number } | undefined;
    return row?.quantity ?? 0;
  }

  #addInventory(o: { userId: string; roleId: string; serverId: string }, item: string, delta: number): void {
    if (delta < 0) {
      // Callers check the balance first; the CHECK constraint keeps it from going negative regardless.
      this.#db
        .prepare(
          'UPDATE inventory SET quantity = quantity + ? WHERE user_id = ? AND role_id = ? AND server_id = ? AND item = ?',
        )
        .run(delta, o.userId, o.roleId, o.serverId, item);
      return;
    }
    this.#db
      .prepare(
        `
      INSERT INTO inventory (user_id, role_id, server_id, item, quantity) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (user_id, role_id, server_id, item) DO UPDATE SET quantity = quantity + excluded.quantity
    `,
      )
      .run(o.userId, o.roleId, o.serverId, item, delta);
  }
}

const ROLE_COLUMNS =
  'user_id AS userId, role_id AS roleId, server_id AS serverId, name, avatar, role_lv AS roleLv, server_name AS serverName';
