#!/usr/bin/env node
// npm run bench (issue 20): every target compares our service with a
// reference measured in the same run, next to it: the route's **ceiling**
// (bench/ceilings/: the least work any correct implementation of the route
// does, on a bare Fastify app), the hello world, the RSA-2048 signing rate of
// all cores, or graphile-worker doing the same work; or bounds RSS or p99.
//
// A scenario declares what ours is compared with and how:
//   references: [{ name, run(ctx) }]   measured next to ours (ctx: { backend, helloUrl })
//   targets: [{ kind, against?, min?, max? }]
//     kind 'cpu':  our CPU per answered request / the reference's  <= max
//     kind 'rate': our rate / the reference's                       >= min
//     kind 'rss':  our peak RSS (MB)                                <= max
//     kind 'p99':  our p99 latency (ms)                             <= max
//   `against` names a reference (default: the first); a target without min or max is only reported;
//   a bound may be per backend: { sqlite: 1.3, postgres: 1.5 }.
// With BENCH_REPEAT=N, ours and its references are measured next to each other
// N times (ours first, then the references, then the other way round, in
// turn, so a drift of the machine's speed does not favour one side), and each
// target's figure is the median of its N ratios. A scenario with `once` (the
// overview, slow to load) is measured once.
//
// Prints a live line per measurement and target, then a table; writes
// .bench/last.json; exits 0 only when every target holds (1 otherwise).
// BENCH_DURATION (s), BENCH_CONNECTIONS, BENCH_BACKENDS (sqlite,postgres),
// BENCH_ONLY (substrings of scenario names), BENCH_REPEAT tune it.
import '../scripts/check-node.mjs'; // stops at once on any Node.js but the pinned one
import fs from 'node:fs';
import path from 'node:path';
import { CONNECTIONS, DURATION, ROOT, startProcess, startService, withRss } from './lib.mjs';

const scenarioDir = path.join(ROOT, 'bench/scenarios');
const scenarios = [];
for (const file of fs
  .readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.mjs'))
  .sort()) {
  scenarios.push(...(await import(path.join(scenarioDir, file))).default);
}
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;
const backends = (process.env.BENCH_BACKENDS ?? 'sqlite,postgres').split(',');
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));

/** How each kind of target is figured: the ratio (or value), its text, and whether it holds. */
const KINDS = {
  cpu: {
    value: (ours, ref) => ours.cpuUsPerRequest / ref.cpuUsPerRequest,
    text: (t) => `CPU/req <= ${t.max}x ${t.against}`,
    holds: (v, t) => v <= t.max,
    figure: (r) => (r.cpuUsPerRequest ? `${r.cpuUsPerRequest.toFixed(0)} us/req (${r.rps.toFixed(0)}/s)` : '-'),
    unit: 'x',
  },
  rate: {
    value: (ours, ref) => ours.rps / ref.rps,
    text: (t) => `rate >= ${t.min}x ${t.against}`,
    holds: (v, t) => v >= t.min,
    figure: (r) => `${r.rps.toFixed(0)}/s`,
    unit: 'x',
  },
  rss: {
    value: (ours) => ours.rssMb,
    text: (t) => `RSS < ${t.max} MB`,
    holds: (v, t) => v <= t.max,
    figure: (r) => `${r.rssMb?.toFixed(0)} MB`,
    unit: ' MB',
  },
  p99: {
    value: (ours) => ours.p99,
    text: (t) => `p99 < ${t.max} ms`,
    holds: (v, t) => v <= t.max,
    figure: (r) => `${r.p99} ms`,
    unit: ' ms',
  },
};
/** Bytes as KB with one decimal: allocation per request. */
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const bounded = (t) => t.min !== undefined || t.max !== undefined;
/** A target as the table prints it: `CPU/req <= 1.25x ceiling 4.3`, or `CPU/req vs hello world` when only reported. */
const targetText = (t) =>
  bounded(t) ? KINDS[t.kind].text(t) : `${t.kind === 'cpu' ? 'CPU/req' : t.kind} vs ${t.against} (reported)`;
const fmt = (v, kind) =>
  v === null || Number.isNaN(v) ? '-' : `${v.toFixed(kind === 'cpu' || kind === 'rate' ? 2 : 0)}${KINDS[kind].unit}`;
const describe = (r) =>
  r.error
    ? `FAILED ${r.error}`
    : `${r.rps.toFixed(0)}/s${r.p99 === null ? '' : `, p50 ${r.p50} ms, p99 ${r.p99} ms`}${r.cpuUsPerRequest ? `, CPU ${r.cpuUsPerRequest.toFixed(0)} us/req${r.gcThreadUsPerRequest ? ` (GC threads ${r.gcThreadUsPerRequest.toFixed(0)})` : ''}` : ''}${r.allocBytesPerRequest ? `, alloc ${kb(r.allocBytesPerRequest)}/req` : ''}${r.rssMb ? `, RSS ${r.rssMb.toFixed(0)} MB` : ''}${r.non2xx ? `, ${r.non2xx} non-2xx!` : ''}${r.errors ? `, ${r.errors} errors!` : ''}`;

/** Ours: the service on a fresh database, its peak RSS sampled. */
async function measureOurs(scenario, backend, ctx) {
  const svc = await startService(backend, scenario.env ?? {});
  try {
    const { result, rssMb } = await withRss(svc.pid, () => scenario.run(svc, ctx));
    return { ...result, rssMb };
  } catch (err) {
    return { error: String(err) };
  } finally {
    if (process.env.BENCH_SHOW_OUTPUT) console.log(svc.output());
    await svc.stop();
  }
}

async function measureReference(ref, ctx) {
  try {
    return await ref.run(ctx);
  } catch (err) {
    return { error: String(err) };
  }
}

/** A measurement is usable when it answered everything: a route (or a ceiling) must not win by failing fast. */
const clean = (r) => !r.error && !(r.non2xx > 0) && !(r.errors > 0);

/** Runs a scenario's repetitions on one backend; answers one row per target. */
async function runScenario(scenario, backend, helloUrl) {
  const ctx = { backend, helloUrl };
  const refs = scenario.references ?? [];
  // Ratios (cpu, rate) are against a reference, the first unless named; bounds (rss, p99) against none.
  const ratio = (t) => t.kind === 'cpu' || t.kind === 'rate';
  // A bound may differ by backend: `max: { sqlite: 1.3, postgres: 1.5 }` (issue 33).
  const onBackend = (bound) => (bound !== null && typeof bound === 'object' ? bound[backend] : bound);
  const targets = (scenario.targets ?? []).map((t) => ({
    ...t,
    ...('min' in t ? { min: onBackend(t.min) } : {}),
    ...('max' in t ? { max: onBackend(t.max) } : {}),
    against: ratio(t) ? (t.against ?? refs[0]?.name) : null,
  }));
  const reps = scenario.once ? 1 : REPEAT;
  const runs = [];
  for (let rep = 0; rep < reps; rep++) {
    const measured = { refs: {} };
    const ours = async () => {
      measured.ours = await measureOurs(scenario, backend, ctx);
      console.log(`[${backend}] ${scenario.name}: ours: ${describe(measured.ours)}`);
    };
    const oursFirst = rep % 2 === 0;
    if (oursFirst) await ours();
    for (const ref of refs) {
      measured.refs[ref.name] = await measureReference(ref, ctx);
      console.log(`[${backend}] ${scenario.name}: ${ref.name}: ${describe(measured.refs[ref.name])}`);
    }
    if (!oursFirst) await ours();
    for (const t of targets) {
      const ref = t.against ? measured.refs[t.against] : null;
      const ok = clean(measured.ours) && (!ref || clean(ref));
      const v = ok ? KINDS[t.kind].value(measured.ours, ref) : null;
      console.log(
        `[${backend}] ${scenario.name}: ${targetText(t)}: ${fmt(v, t.kind)}${bounded(t) ? (v !== null && KINDS[t.kind].holds(v, t) ? '  ok' : '  MISSED') : ''}`,
      );
    }
    runs.push(measured);
  }
  const rowsOut = targets.map((t) => {
    const values = runs.map((m) => {
      const ref = t.against ? m.refs[t.against] : null;
      return clean(m.ours) && (!ref || clean(ref)) ? KINDS[t.kind].value(m.ours, ref) : null;
    });
    const ok = values.filter((v) => v !== null && !Number.isNaN(v)).sort((a, b) => a - b);
    const value = ok.length ? ok[Math.floor((ok.length - 1) / 2)] : null;
    // The measurement pair whose ratio is the median, for the figures beside it.
    const at = values.indexOf(value);
    const m = runs[at >= 0 ? at : 0];
    const errors = runs
      .flatMap((r) => [r.ours, ...(t.against ? [r.refs[t.against]] : [])])
      .filter((r) => !clean(r))
      .map((r) => r.error ?? `${r.non2xx ?? 0} non-2xx, ${r.errors ?? 0} errors`);
    return {
      backend,
      scenario: scenario.name,
      target: targetText(t),
      kind: t.kind,
      value,
      values,
      ours: m.ours,
      against: t.against ?? null,
      reference: t.against ? m.refs[t.against] : null,
      errors,
      pass: bounded(t) ? errors.length === 0 && value !== null && KINDS[t.kind].holds(value, t) : undefined,
    };
  });
  if (reps > 1)
    for (const r of rowsOut)
      console.log(
        `[${backend}] ${scenario.name}: ${r.target}: median ${fmt(r.value, r.kind)} of ${reps} (${r.values.map((v) => fmt(v, r.kind)).join(', ')})${r.pass === false ? '  MISSED' : ''}`,
      );
  return rowsOut;
}

const rows = [];
console.log(
  `bench: ${DURATION}s per measurement${REPEAT > 1 ? `, ours and its references ${REPEAT} times each, median ratio` : ''}, ${CONNECTIONS} connections, backends ${backends.join(', ')}`,
);
for (const backend of backends) {
  const hello = await startProcess([path.join(ROOT, 'bench/baseline.mjs')]);
  try {
    for (const scenario of scenarios) {
      if (only && !only.some((o) => scenario.name.includes(o))) continue;
      if (scenario.backends && !scenario.backends.includes(backend)) continue;
      rows.push(...(await runScenario(scenario, backend, hello.url)));
    }
  } finally {
    await hello.stop();
  }
}

/** Allocation per request (bench/alloc-probe.mjs), ours and the reference's, for the table's column. */
const allocFigure = (r) =>
  r.ours.allocBytesPerRequest
    ? `${kb(r.ours.allocBytesPerRequest)}${r.reference?.allocBytesPerRequest ? ` / ${kb(r.reference.allocBytesPerRequest)} (${(r.ours.allocBytesPerRequest / r.reference.allocBytesPerRequest).toFixed(2)}x)` : ''}`
    : '';
const refFigure = (r) => {
  if (!r.reference) return '';
  if (r.reference.error) return `${r.against}: error`;
  return `${r.against}: ${KINDS[r.kind].figure(r.reference)}`;
};
console.log(
  `\n| backend | scenario | target | ours | reference (same run) | ${REPEAT > 1 ? 'median (all runs)' : 'ratio / value'} | ours p50 / p99 ms | ours RSS MB | alloc/req ours / reference | |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const ours = r.ours.error ? `error: ${r.ours.error}` : KINDS[r.kind].figure(r.ours);
  const all = r.values.length > 1 ? ` (${r.values.map((v) => fmt(v, r.kind)).join(', ')})` : '';
  console.log(
    `| ${r.backend} | ${r.scenario} | ${r.target} | ${ours} | ${refFigure(r)} | ${fmt(r.value, r.kind)}${all} | ${r.ours.error || r.ours.p99 === null ? '' : `${r.ours.p50} / ${r.ours.p99}`} | ${r.ours.rssMb?.toFixed(0) ?? ''} | ${r.ours.error ? '' : allocFigure(r)} | ${r.pass === undefined ? '' : r.pass ? 'ok' : `MISSED${r.errors.length ? ` (${r.errors[0]})` : ''}`} |`,
  );
}
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/last.json'), JSON.stringify(rows, null, 2));
process.exit(rows.some((r) => r.pass === false) ? 1 : 0);
