import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layering, checked on the sources (cheap, either backend):
 * - domain logic never sees the Services container nor Fastify: routes,
 *   modules and CLIs wire it, and hand services plain values;
 * - the shared infrastructure (db, auth, http, errors, crypto, config, cache, tracing, jobs)
 *   knows no domain and no Services container: it is handed functions and
 *   values (e.g. auth's ResolveApp);
 * - SQL for a table stands only in the store that owns it (OWNERS);
 * - routes and CLIs are wiring: only the composition root (routes.ts, cli/) and other wiring import them, and
 *   routes.ts only boot.ts and the test harness;
 * - the domains' logic builds one way: no cycle between domain folders through their logic and storage;
 * - orders' rooms (ORDERS_ROOMS) share through the orders core (the top of orders/), never through each other.
 * docs/architecture.md states these rules; scripts/architecture-graph.mjs draws the picture.
 */
const DOMAINS = [
  'accounts',
  'admin-audit',
  'apps',
  'delivery',
  'evidence',
  'game-calls',
  'orders',
  'platform-keys',
  'reporting',
  'master-key',
  'app-stores',
  'backup',
  'retention',
  'identity',
  'operators',
  'portal',
  'web-pay',
  'store-payments',
  'overview',
  'payment-providers',
];
const INFRASTRUCTURE = ['db', 'auth', 'http', 'errors', 'crypto', 'config', 'cache', 'tracing', 'jobs'];
/** The rooms of src/orders/ by flow (docs/architecture.md, "Orders in rooms"); orders' top-level files are its core. */
const ORDERS_ROOMS = ['placement', 'payments', 'refunds', 'consumption', 'catalogue'];
/** Files that wire a domain (or test it) rather than being its logic. */
const WIRING = /\.(routes|module|cli|test|testlib)\.ts$/;

/** Known violations, each `file -> import` with why; empty now that every domain takes plain values. */
const ALLOWED = new Set<string>([]);

/**
 * Every table and the store that owns it: the files that may hold SQL for it. A store is one file, or one file per
 * operation (delivery's outbox, in graphile-worker's style). Entries marked `reuse` are another store's batch
 * statement writing through a piece the owner exports (OUTBOX_COLUMNS, the evidence upload rows) so that one
 * statement commits both; `read` marks a read across stores inside one domain.
 */
const OWNERS: Record<string, string[]> = {
  admin_actions: ['admin-audit/admin-actions.repository.ts'],
  apps: ['apps/apps.repository.ts'],
  app_store_settings: ['app-stores/store-settings.repository.ts'],
  store_transactions: ['store-payments/store-payments.repository.ts'],
  store_messages: ['store-payments/store-payments.repository.ts'],
  store_cursors: ['store-payments/store-payments.repository.ts'],
  store_revocations: ['store-payments/store-payments.repository.ts'],
  store_key_locks: ['store-payments/store-payments.repository.ts'],
  store_consumption_requests: ['store-payments/consumption.repository.ts'],
  order_consumption: ['store-payments/consumption.repository.ts'],
  payment_provider_settings: ['payment-providers/payment-providers.repository.ts'],
  provider_payments: ['payment-providers/payment-providers.repository.ts'],
  refund_requests: ['payment-providers/refund-requests.repository.ts'],
  provider_messages: ['payment-providers/payment-providers.repository.ts'],
  platform_keys: ['platform-keys/keys.repository.ts'],
  nonces: ['auth/nonce-ledger.ts'],
  reports: [
    'reporting/reports.store.ts',
    'reporting/reports.pg-batch.ts',
    'reporting/reports.sqlite-batch.ts',
    'reporting/moderation.repository.ts',
    'reporting/overview.queries.ts',
  ],
  report_reasons: [
    'reporting/reports.store.ts',
    'reporting/reports.pg-batch.ts',
    'reporting/reports.sqlite-batch.ts',
    'reporting/moderation.repository.ts',
  ],
  report_evidence: [
    'reporting/reports.store.ts',
    'reporting/reports.pg-batch.ts',
    'reporting/reports.sqlite-batch.ts',
    'reporting/moderation.repository.ts',
  ],
  report_dedupe: ['reporting/reports.store.ts', 'reporting/reports.pg-batch.ts', 'reporting/reports.sqlite-batch.ts'],
  moderation_actions: ['reporting/moderation.repository.ts'],
  // reuse: the 4.1 batch statement records the evidence uploads it cites on PostgreSQL.
  evidence_uploads: ['evidence/evidence.repository.ts', 'reporting/reports.pg-batch.ts'],
  consumption_notices: [
    'orders/consumption/consumption-notices.store.ts',
    'orders/consumption/consumption.pg-batch.ts',
  ],
  orders: [
    'orders/orders.repository.ts',
    'orders/placement/placement-writes.ts',
    'orders/placement/placement-claims.ts',
    'orders/overview.queries.ts',
    'orders/refunds/refund-abuse.queries.ts',
  ],
  order_items: ['orders/orders.repository.ts', 'orders/placement/placement-writes.ts'],
  order_status_changes: ['orders/orders.repository.ts'],
  supplements: [
    'orders/orders.repository.ts',
    'orders/overview.queries.ts',
    'orders/refunds/refund-abuse.queries.ts',
    // 4.5's batch statement: the arrears read with the requests' nonces (the nonce ledger's CTE).
    'orders/refunds/arrears-batch.ts',
  ],
  web_refunds: [
    'orders/refunds/web-refunds.store.ts',
    'orders/overview.queries.ts',
    'orders/refunds/refund-abuse.queries.ts',
  ],
  placement_claims: ['orders/placement/placement-claims.ts'],
  products: ['orders/catalogue/products.repository.ts'],
  order_settings: ['orders/catalogue/settings.repository.ts'],
  outbox: [
    'delivery/outbox.ts',
    'delivery/claim.ts',
    'delivery/complete.ts',
    'delivery/release.ts',
    'delivery/resend.ts',
    'delivery/recover.ts',
    'delivery/events.repository.ts',
    'delivery/metrics.ts',
    'delivery/purge.ts',
    'delivery/overview.queries.ts',
    // reuse: the 4.6 batch statement enqueues the partner forwards with the notices (OUTBOX_COLUMNS).
    'orders/consumption/consumption.pg-batch.ts',
  ],
  delivery_attempts: [
    'delivery/attempts.ts',
    'delivery/complete.ts',
    'delivery/events.repository.ts',
    'delivery/purge.ts',
    'delivery/overview.queries.ts',
  ],
  game_calls: ['game-calls/call-log.repository.ts', 'game-calls/overview.queries.ts'],
  users: ['accounts/users.repository.ts', 'accounts/tokens.repository.ts' /* read: a token's user */],
  user_apps: ['accounts/users.repository.ts'],
  user_bans: ['accounts/users.repository.ts'],
  login_methods: ['accounts/login-methods.repository.ts', 'accounts/tokens.repository.ts' /* read */],
  tokens: ['accounts/tokens.repository.ts'],
  // An invitation's acceptance writes the person's credentials and ends its sessions in its own transaction.
  people: ['identity/people.repository.ts', 'identity/invitations.repository.ts'],
  person_grants: ['identity/people.repository.ts'],
  person_sessions: ['identity/people.repository.ts', 'identity/invitations.repository.ts'],
  person_tokens: ['identity/people.repository.ts'],
  person_invitations: ['identity/invitations.repository.ts'],
  person_passkeys: ['identity/invitations.repository.ts'],
  webauthn_challenges: ['identity/invitations.repository.ts'],
  pay_links: ['web-pay/pay-links.repository.ts'],
  web_pay_settings: ['web-pay/web-pay-settings.repository.ts'],
  precheck_messages: ['web-pay/web-pay-settings.repository.ts'],
};

// The sources: next to this file when run from src, else src beside dist.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = fs.existsSync(path.join(here, 'services.ts')) ? here : path.join(here, '..', 'src');
const IMPORT =
  /(?:import|export)\s(?:type\s)?[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('');
  return out;
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

/** The source file or folder an import names, relative to src ('' for a package). */
function target(file: string, spec: string): string {
  return spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : '';
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    const area = file.split('/')[0]!;
    const name = path.posix.basename(file);
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      const isServices = to === 'services.js';
      if (DOMAINS.includes(area) && !WIRING.test(name)) {
        if (isServices || spec === 'fastify' || spec.startsWith('fastify/') || spec.startsWith('@fastify/'))
          found.push(`${file} -> ${spec}`);
      }
      if (INFRASTRUCTURE.includes(area) && !/\.(test|testlib)\.ts$/.test(name)) {
        if (isServices || DOMAINS.includes(to.split('/')[0]!)) found.push(`${file} -> ${spec}`);
      }
    }
  }
  return found;
}

const isTest = (file: string) => /\.(test|testlib)\.ts$/.test(file) || file.startsWith('testing/');

/** Imports of wiring from outside the composition root and other wiring (a routes file, a CLI, routes.ts). */
function wiringViolations(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    if (isTest(file)) continue;
    const name = path.posix.basename(file);
    const composition = !file.includes('/') || file.startsWith('cli/');
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (to === 'routes.js' && file !== 'boot.ts') found.push(`${file} -> ${spec}`);
      else if (/\.(routes|cli)\.js$/.test(to) && !composition && !WIRING.test(name)) found.push(`${file} -> ${spec}`);
    }
  }
  return found;
}

/** orders/<room>/... -> the room, orders/<file> -> 'core', else null. */
function ordersRoom(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'orders') return null;
  return parts.length > 2 && ORDERS_ROOMS.includes(parts[1]!) ? parts[1]! : 'core';
}

/**
 * A room imports its own files, the orders core (not orders.module.ts, the domain's composition, nor the core's
 * wiring), and lower layers; a room's wiring may also take another room's schemas (*.schemas.ts), the wire shapes.
 */
function roomViolations(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    const room = ordersRoom(file);
    if (room === null || room === 'core' || isTest(file)) continue;
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      const toRoom = ordersRoom(to);
      if (toRoom === null || toRoom === room) continue;
      const ok =
        toRoom === 'core'
          ? !/\.(module|routes|cli)\.js$/.test(to)
          : WIRING.test(path.posix.basename(file)) && to.endsWith('.schemas.js');
      if (!ok) found.push(`${file} -> ${spec}`);
    }
  }
  return found;
}

/** The folder graph of the domains' logic and storage (wiring and tests left out), and its cycles. */
function domainCycles(): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const file of sources()) {
    const from = file.split('/')[0]!;
    if (!DOMAINS.includes(from) || isTest(file) || WIRING.test(path.posix.basename(file))) continue;
    for (const spec of importsOf(file)) {
      const to = target(file, spec).split('/')[0]!;
      if (to !== from && DOMAINS.includes(to)) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...trail.slice(trail.indexOf(next)), node, next]);
      else if (!state.has(next)) visit(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of DOMAINS) if (!state.has(node)) visit(node, []);
  return cycles;
}

describe('architecture', () => {
  it('keeps Services and Fastify out of domain logic, and domains out of the infrastructure', () => {
    const found = violations();
    assert.ok(found.length > 0 || sources().length > 50, 'the sources were found');
    assert.deepEqual(
      found.filter((v) => !ALLOWED.has(v)),
      [],
      'domain logic takes plain values (routes extract them); auth/http/... are handed functions, not domains',
    );
  });

  it('lists only allowances still needed', () => {
    const found = new Set(violations());
    assert.deepEqual(
      [...ALLOWED].filter((a) => !found.has(a)),
      [],
      'remove these from ALLOWED',
    );
  });

  it('keeps routes and CLIs as wiring: registered by the composition root, never imported by domain logic', () => {
    assert.deepEqual(wiringViolations(), [], 'logic imports no *.routes.ts, *.cli.ts nor routes.ts');
  });

  it("keeps orders' rooms apart: each shares through the orders core, never through another room", () => {
    for (const room of ORDERS_ROOMS) assert.ok(fs.existsSync(path.join(root, 'orders', room)), `orders/${room}`);
    assert.deepEqual(roomViolations(), [], "a room imports the orders core and lower layers, not another room's files");
  });

  it("keeps the domains' logic one way: no cycle between domain folders", () => {
    assert.deepEqual(domainCycles(), [], 'a cycle between domains (logic and storage imports, wiring left out)');
  });

  it('has its picture in docs/architecture.md drawn from the current imports', () => {
    const script = path.join(root, '..', '..', '..', 'scripts', 'architecture-graph.mjs');
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stderr}(node scripts/architecture-graph.mjs redraws it)`);
  });

  it('keeps the SQL of each table in the store that owns it', () => {
    const migrations = fs.readdirSync(path.join(root, 'db/migrations')).map((f) => path.join('db/migrations', f));
    const named = (pattern: RegExp) =>
      migrations.flatMap((f) => [...fs.readFileSync(path.join(root, f), 'utf8').matchAll(pattern)].map((m) => m[1]!));
    // The tables a migration creates, less those a later one drops (0025 folded operators and studio developers).
    const dropped = new Set(named(/dropTable\('(\w+)'\)/g));
    const tables = new Set(named(/createTable\('(\w+)'\)/g).filter((t) => !dropped.has(t)));
    assert.deepEqual([...tables].sort(), Object.keys(OWNERS).sort(), 'every table has an owner in OWNERS');
    const strays: string[] = [];
    for (const file of sources()) {
      if (/\.(test|testlib)\.ts$/.test(file) || file.startsWith('testing/') || file.startsWith('db/migrations/'))
        continue;
      // Comments may name a table; code may not, outside its store.
      const code = fs
        .readFileSync(path.join(root, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/[^\n]*/g, '');
      for (const table of tables) {
        const builder = new RegExp(
          `((selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin)\\(|rows?ByKey\\([^,]*,)\\s*'${table}\\b`,
        );
        const raw = new RegExp(`\\b(insert\\s+into|update|delete\\s+from|from|join)\\s+${table}\\b`, 'i');
        if ((builder.test(code) || raw.test(code)) && !OWNERS[table]!.includes(file))
          strays.push(`${table} in ${file}`);
      }
    }
    assert.deepEqual(strays, [], 'SQL for a table outside its store');
  });
});
