/** The game store's tables (SQLite). Created if absent at open; trxNo is the platform's, notifyId its notification id. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS roles (
  role_id TEXT NOT NULL, server_id TEXT NOT NULL, user_id TEXT NOT NULL,
  name TEXT NOT NULL, avatar TEXT NOT NULL, role_lv INTEGER, server_name TEXT, created_at INTEGER NOT NULL,
  PRIMARY KEY (role_id, server_id)
);
CREATE INDEX IF NOT EXISTS roles_user ON roles (user_id, server_id);

CREATE TABLE IF NOT EXISTS payments (
  trx_no INTEGER PRIMARY KEY, notify_id INTEGER NOT NULL,
  user_id TEXT NOT NULL, role_id TEXT NOT NULL, server_id TEXT NOT NULL, out_trx_no TEXT,
  total_amount TEXT NOT NULL, currency TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('granted', 'refunded', 'not_granted', 'not_succeeded')),
  received_at INTEGER NOT NULL, body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_user ON payments (user_id);
CREATE INDEX IF NOT EXISTS payments_role ON payments (role_id, server_id, state);

CREATE TABLE IF NOT EXISTS payment_products (
  trx_no INTEGER NOT NULL REFERENCES payments (trx_no), line INTEGER NOT NULL,
  product_code TEXT NOT NULL, quantity INTEGER NOT NULL, known INTEGER NOT NULL,
  PRIMARY KEY (trx_no, line)
);

CREATE TABLE IF NOT EXISTS payment_items (
  trx_no INTEGER NOT NULL REFERENCES payments (trx_no), item TEXT NOT NULL, quantity INTEGER NOT NULL,
  PRIMARY KEY (trx_no, item)
);

CREATE TABLE IF NOT EXISTS inventory (
  user_id TEXT NOT NULL, role_id TEXT NOT NULL, server_id TEXT NOT NULL, item TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity >= 0),
  PRIMARY KEY (user_id, role_id, server_id, item)
);

CREATE TABLE IF NOT EXISTS refunds (
  trx_no INTEGER PRIMARY KEY, original_trx_no INTEGER NOT NULL, notify_id INTEGER NOT NULL, user_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('revoked', 'awaiting_payment', 'nothing_granted')),
  received_at INTEGER NOT NULL, body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS refunds_original ON refunds (original_trx_no);
CREATE INDEX IF NOT EXISTS refunds_user ON refunds (user_id);

CREATE TABLE IF NOT EXISTS refund_items (
  trx_no INTEGER NOT NULL REFERENCES refunds (trx_no), item TEXT NOT NULL,
  revoked INTEGER NOT NULL, owed INTEGER NOT NULL,
  PRIMARY KEY (trx_no, item)
);

CREATE TABLE IF NOT EXISTS debts (
  user_id TEXT NOT NULL, role_id TEXT NOT NULL, server_id TEXT NOT NULL, item TEXT NOT NULL, quantity INTEGER NOT NULL,
  PRIMARY KEY (user_id, role_id, server_id, item)
);

CREATE TABLE IF NOT EXISTS other_notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT, notify_id INTEGER UNIQUE, trx_type INTEGER NOT NULL, trx_no INTEGER,
  received_at INTEGER NOT NULL, body TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS cancellations (
  notify_id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, received_at INTEGER NOT NULL, body TEXT NOT NULL
);
`;
