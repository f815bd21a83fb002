#!/usr/bin/env node
// Draws the server's folder graph from its imports (packages/server/src, tests and test kits left out) and writes
// it as a Mermaid block into docs/architecture.md, between the architecture-graph markers. `--check` only reports
// whether the block is current (exit 1 if not). An arrow A --> B: some logic or storage file of A imports a file of
// B (wiring, i.e. routes, CLIs and modules, reaches across by design and is left out). The layers are the ones
// src/architecture.test.ts enforces; arrows from the root and from the domains into the infrastructure are drawn once
// per layer, so the picture shows the domains' own directions and the infrastructure's stack.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const src = path.join(root, 'packages/server/src');
const doc = path.join(root, 'docs/architecture.md');

// As in src/architecture.test.ts: the infrastructure's stack (lowest first) and the root's files.
const INFRASTRUCTURE = ['errors', 'tracing', 'jobs', 'db', 'config', 'crypto', 'auth', 'cache', 'http', 'cli'];
const COMPOSITION = ['services.ts', 'routes.ts', 'commands.ts', 'boot.ts', 'cli.ts'];
const ORDERS_ROOMS = ['placement', 'payments', 'refunds', 'consumption', 'catalogue'];
const WIRING = /\.(routes|cli|module)\.ts$/;
const IMPORT = /(?:import|export)\s(?:type\s)?[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir = '') {
  return fs.readdirSync(path.join(src, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) return rel === 'testing' || rel === 'db/migrations' ? [] : sources(rel);
    return e.name.endsWith('.ts') && !/\.(test|testlib|d)\.ts$/.test(e.name) ? [rel] : [];
  });
}

/** The node a file belongs to: its top folder, orders' rooms apart (orders' top-level files are `orders`). */
function node(file) {
  const parts = file.split('/');
  if (parts.length === 1) return parts[0];
  if (parts[0] === 'orders' && ORDERS_ROOMS.includes(parts[1]) && parts.length > 2) return `orders/${parts[1]}`;
  return parts[0];
}

const layer = (n) =>
  COMPOSITION.includes(n) ? 'composition' : INFRASTRUCTURE.includes(n) ? 'infrastructure' : 'domains';
const id = (n) => n.replace(/[^a-z0-9]/gi, '_');

const edges = new Set();
for (const file of sources()) {
  // Wiring (routes, CLIs, modules) reaches into many folders by design; the picture shows what the logic builds on.
  if (WIRING.test(file) && !COMPOSITION.includes(node(file))) continue;
  const text = fs.readFileSync(path.join(src, file), 'utf8');
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue;
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts');
    if (to.startsWith('testing/')) continue;
    const a = node(file);
    const b = node(to);
    if (a === b) continue;
    const la = layer(a);
    const lb = layer(b);
    if (la === 'composition' && lb !== 'composition') edges.add(`composition --> ${lb}`);
    else if (lb === 'infrastructure' && la !== 'infrastructure') edges.add(`${la} --> infrastructure`);
    else if (la === lb && la !== 'composition') edges.add(`${id(a)} --> ${id(b)}`);
  }
}

const folders = [...new Set(sources().map(node))];
const list = (l) => folders.filter((n) => layer(n) === l && !n.startsWith('orders/')).sort();
const label = (n) => `${id(n)}["${n}"]`;
const lines = [
  'flowchart TB',
  '  subgraph composition["composition root"]',
  ...list('composition').map((n) => `    ${label(n)}`),
  '  end',
  '  subgraph domains',
  ...list('domains')
    .filter((n) => n !== 'orders')
    .map((n) => `    ${label(n)}`),
  '    subgraph orders_rooms["orders"]',
  '      orders["orders (shared core, orders.module.ts)"]',
  ...ORDERS_ROOMS.map((r) => `      ${label(`orders/${r}`)}`),
  '    end',
  '  end',
  '  subgraph infrastructure',
  ...INFRASTRUCTURE.map((n) => `    ${label(n)}`),
  '  end',
  ...[...edges].sort().map((e) => `  ${e}`),
];
const block = ['```mermaid', ...lines, '```'].join('\n');

const BEGIN = '<!-- architecture-graph:begin (scripts/architecture-graph.mjs writes this block) -->';
const END = '<!-- architecture-graph:end -->';
const text = fs.readFileSync(doc, 'utf8');
const start = text.indexOf(BEGIN);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${BEGIN} ... ${END} markers`);
const next = `${text.slice(0, start + BEGIN.length)}\n${block}\n${text.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== text) {
    console.error('docs/architecture.md: the graph is out of date; run node scripts/architecture-graph.mjs');
    process.exit(1);
  }
} else if (next !== text) {
  fs.writeFileSync(doc, next);
  console.log(`docs/architecture.md: graph of ${folders.length} folders, ${edges.size} arrows`);
}
