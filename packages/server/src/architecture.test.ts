import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layering, checked on the sources (cheap, either backend):
 * - the root (ROOT: services.ts, routes.ts, commands.ts, boot.ts, cli.ts) assembles the domains, and imports a
 *   domain only through its module `<domain>/<domain>.module.ts`; no other file imports services.ts;
 * - domain logic never sees the Services container nor Fastify: routes, modules and CLIs wire it, and hand services
 *   plain values; it imports another domain's module for types only;
 * - the shared infrastructure (INFRASTRUCTURE) knows no domain and no root file: it is handed functions and values
 *   (e.g. auth's ResolveApp), and it is a stack: each folder imports only the folders listed before it;
 * - SQL for a table stands only in the store that owns it (OWNERS);
 * - routes and CLIs are wiring: only the root and other wiring import them, routes.ts only boot.ts and the test
 *   harness; no domain's CLI imports another domain's CLI (commands.ts lists them all);
 * - no cycle between the top-level folders of src (tests left out), and the domains' logic builds one way;
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
  'console',
];
/** The infrastructure as a stack, lowest first: a folder imports only those before it. */
const INFRASTRUCTURE = ['errors', 'tracing', 'jobs', 'db', 'config', 'crypto', 'auth', 'cache', 'http', 'cli'];
/** The composition root: the only files that import services.ts, and a domain only through its module. */
const ROOT = ['services.ts', 'routes.ts', 'commands.ts', 'boot.ts', 'cli.ts'];
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

/** Each import of a file: what it names, and whether it imports types only (`import type`, every name `type X`). */
function importStatementsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => {
    const names = /^(?:import|export)\s+\{([^}]*)\}/.exec(m[0])?.[1];
    const typeOnly =
      /^(?:import|export)\s+type\s/.test(m[0]) ||
      (names !== undefined && names.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type ')));
    return { spec: (m[1] ?? m[2] ?? m[3])!, typeOnly };
  });
}

function importsOf(file: string): string[] {
  return importStatementsOf(file).map((i) => i.spec);
}

/** The source file or folder an import names, relative to src ('' for a package). */
function target(file: string, spec: string): string {
  return spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : '';
}

const isTest = (file: string) => /\.(test|testlib)\.ts$/.test(file) || file.startsWith('testing/');
/** The top-level folder (or root file) of a source path, `.js` of an import read as its `.ts`. */
const top = (file: string) => file.split('/')[0]!.replace(/\.js$/, '.ts');
const isRootFile = (to: string) => !to.includes('/') && ROOT.includes(top(to));
/** `<domain>/<domain>.module.js`: the one file of a domain the root imports. */
const moduleOf = (domain: string) => `${domain}/${domain}.module.js`;

function violations(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    if (isTest(file)) continue;
    const area = top(file);
    const name = path.posix.basename(file);
    for (const { spec, typeOnly } of importStatementsOf(file)) {
      const to = target(file, spec);
      const toArea = top(to);
      if (DOMAINS.includes(area) && !WIRING.test(name)) {
        if (isRootFile(to) || spec === 'fastify' || spec.startsWith('fastify/') || spec.startsWith('@fastify/'))
          found.push(`${file} -> ${spec}`);
        // Another domain's module is its wiring: logic and storage may name its types, not call into it.
        else if (toArea !== area && DOMAINS.includes(toArea) && to === moduleOf(toArea) && !typeOnly)
          found.push(`${file} -> ${spec}`);
      }
      if (INFRASTRUCTURE.includes(area) && (isRootFile(to) || DOMAINS.includes(toArea)))
        found.push(`${file} -> ${spec}`);
    }
  }
  return found;
}

/** Imports of services.ts from outside the root (tests and the test harness build the container too). */
function servicesImports(): string[] {
  return sources()
    .filter((file) => !ROOT.includes(file) && !isTest(file))
    .flatMap((file) => importsOf(file).map((spec) => ({ file, spec })))
    .filter(({ file, spec }) => target(file, spec) === 'services.js')
    .map(({ file, spec }) => `${file} -> ${spec}`);
}

/** The root's imports of a domain other than through `<domain>/<domain>.module.ts`. */
function rootReachesPastModules(): string[] {
  return ROOT.flatMap((file) =>
    importsOf(file)
      .map((spec) => target(file, spec))
      .filter((to) => DOMAINS.includes(top(to)) && to !== moduleOf(top(to)))
      .map((to) => `${file} -> ${to}`),
  );
}

/** A domain's `*.cli.ts` importing another domain's `*.cli.ts`: commands.ts lists every domain's commands. */
function cliCrossImports(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    if (!file.endsWith('.cli.ts') || !DOMAINS.includes(top(file))) continue;
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (to.endsWith('.cli.js') && top(to) !== top(file)) found.push(`${file} -> ${spec}`);
    }
  }
  return found;
}

/** An infrastructure folder importing one at or above it in INFRASTRUCTURE's order. */
function infrastructureUpward(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    const level = INFRASTRUCTURE.indexOf(top(file));
    if (level < 0 || isTest(file)) continue;
    for (const spec of importsOf(file)) {
      const to = top(target(file, spec));
      if (to !== top(file) && INFRASTRUCTURE.indexOf(to) >= level) found.push(`${file} -> ${spec}`);
    }
  }
  return found;
}

/**
 * The strongly connected components (Tarjan) of more than one node in the graph of src's top-level folders and
 * root files, over the imports of product files (tests, the test harness and the migrations left out).
 */
function folderCycles(): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const file of sources()) {
    if (isTest(file) || file.startsWith('db/migrations/')) continue;
    const from = top(file);
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (!to || to.startsWith('testing/') || to.startsWith('..') || top(to) === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(top(to)));
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component = stack.splice(stack.indexOf(node));
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** Imports of wiring from outside the root and other wiring (a routes file, a CLI, routes.ts). */
function wiringViolations(): string[] {
  const found: string[] = [];
  for (const file of sources()) {
    if (isTest(file)) continue;
    const name = path.posix.basename(file);
    for (const spec of importsOf(file)) {
      const to = target(file, spec);
      if (to === 'routes.js' && file !== 'boot.ts') found.push(`${file} -> ${spec}`);
      else if (/\.(routes|cli)\.js$/.test(to) && !ROOT.includes(file) && !WIRING.test(name))
        found.push(`${file} -> ${spec}`);
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
    for (const { spec, typeOnly } of importStatementsOf(file)) {
      const to = target(file, spec);
      const toRoom = ordersRoom(to);
      if (toRoom === null || toRoom === room) continue;
      // A room's wiring may name another room's schemas, and its types (the narrow deps a route or CLI takes).
      const ok =
        toRoom === 'core'
          ? !/\.(module|routes|cli)\.js$/.test(to)
          : WIRING.test(path.posix.basename(file)) && (to.endsWith('.schemas.js') || typeOnly);
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
  it('keeps the root and Fastify out of domain logic, and domains and the root out of the infrastructure', () => {
    const found = violations();
    assert.ok(found.length > 0 || sources().length > 50, 'the sources were found');
    assert.deepEqual(
      found.filter((v) => !ALLOWED.has(v)),
      [],
      "domain logic takes plain values and no root file (routes extract them), another domain's module for types only; auth/http/... are handed functions, not domains",
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

  it('keeps routes and CLIs as wiring: registered by the root, never imported by domain logic', () => {
    assert.deepEqual(wiringViolations(), [], 'logic imports no *.routes.ts, *.cli.ts nor routes.ts');
  });

  it('files every folder of src as a domain or infrastructure, and every top-level file as the root', () => {
    const folders = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory());
    assert.deepEqual(
      folders.map((e) => e.name).filter((n) => n !== 'testing' && !DOMAINS.includes(n) && !INFRASTRUCTURE.includes(n)),
      [],
      'add the folder to DOMAINS or INFRASTRUCTURE (docs/architecture.md says which)',
    );
    assert.deepEqual(
      sources().filter((f) => !f.includes('/') && !isTest(f) && !ROOT.includes(f)),
      [],
      'a file at the top of src is the root (ROOT); anything else goes in a folder',
    );
  });

  it('imports services.ts only from the root', () => {
    assert.deepEqual(servicesImports(), [], 'take a narrow deps object typed by what is used, not Services');
  });

  it('has the root import each domain through its module alone', () => {
    assert.deepEqual(
      rootReachesPastModules(),
      [],
      'export it from <domain>/<domain>.module.ts (types too) and import it from there',
    );
  });

  it("keeps each domain's CLI to itself: no domain CLI imports another's", () => {
    assert.deepEqual(
      cliCrossImports(),
      [],
      "commands.ts lists every domain's commands; move the command or share logic",
    );
  });

  it('keeps the infrastructure a stack: each folder imports only those below it', () => {
    assert.deepEqual(infrastructureUpward(), [], `the order, lowest first: ${INFRASTRUCTURE.join(', ')}`);
  });

  it('keeps the test kit on top: test helpers live in testing/, and only tests and testing/ import it', () => {
    // A domain's test helpers import the harness (testing/service.ts), which imports the root: beside the domain
    // they would tie it back up to the root. So they live in testing/<domain>/, which stands above the house.
    const strays = sources().filter((file) => file.endsWith('.testlib.ts') && !file.startsWith('testing/'));
    const users = sources().flatMap((file) =>
      /\.test\.ts$/.test(file) || file.startsWith('testing/')
        ? []
        : importsOf(file)
            .filter((spec) => target(file, spec).startsWith('testing/'))
            .map((spec) => `${file} -> ${spec}`),
    );
    assert.deepEqual(
      [...strays, ...users],
      [],
      'move the helper to testing/<domain>/; product code never imports testing/',
    );
  });

  it('has no cycle between the top-level folders of src', () => {
    assert.deepEqual(folderCycles(), [], 'folders that import each other, directly or around a circle');
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
