#!/usr/bin/env node
// npm run bench: every speed target is a ratio against a baseline measured in
// the same run (a bare Fastify hello world, or pgbench / RSA signing where the
// issue says so), on each storage backend. Prints a table; exits 1 if a target
// is missed. BENCH_DURATION (s), BENCH_CONNECTIONS, BENCH_BACKENDS (sqlite,postgres)
// BENCH_ONLY (substring of scenario names) and BENCH_REPEAT (runs per scenario,
// median reported) tune it.
import '../scripts/check-node.mjs'; // stops at once on any Node.js but the pinned one
import fs from 'node:fs';
import path from 'node:path';
import { CONNECTIONS, DURATION, ROOT, load, startProcess, startService, withRss } from './lib.mjs';

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

// The baseline runs as one process per backend and is measured again right
// before every scenario: the machine's speed drifts (other processes, CPU
// steal), and a ratio is only fair against a baseline taken next to it.
const REPEAT = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
/** The hello world's CPU per request and ours over it: `31: 0.28x` (the live line and the table both show it). */
const cpuRatioText = (r) => (r.cpuRatio ? `${r.baseCpuUs.toFixed(0)}: ${r.cpuRatio.toFixed(2)}x` : '');
const cpuText = (r) =>
  r.cpuUsPerRequest
    ? `, CPU ${r.cpuUsPerRequest.toFixed(0)} us/req${r.cpuRatio ? ` (hello world ${cpuRatioText(r)})` : ''}`
    : '';
const cpuFigure = (r) =>
  r.cpuUsPerRequest ? `${r.cpuUsPerRequest.toFixed(0)}${r.cpuRatio ? ` (${cpuRatioText(r)})` : ''}` : '';

/** One measurement of a scenario next to a fresh baseline measurement: a result row. */
async function measure(scenario, backend, baselineProc) {
  const base = await load(baselineProc.url, { path: '/' });
  console.log(
    `[${backend}] baseline ${base.rps.toFixed(0)} req/s (p50 ${base.p50} ms, p99 ${base.p99} ms${base.cpuUsPerRequest ? `, CPU ${base.cpuUsPerRequest.toFixed(0)} us/req` : ''})`,
  );
  // A standalone scenario starts its own process (a ceiling), not the service.
  const svc = scenario.standalone ? null : await startService(backend, scenario.env ?? {});
  try {
    const { result, rssMb } = svc
      ? await withRss(svc.pid, () => scenario.run(svc, { baseline: base, backend }))
      : { result: await scenario.run(null, { baseline: base, backend }), rssMb: null };
    const reference = result.reference ?? { name: 'hello world', rps: base.rps };
    const ratio = result.rps / reference.rps;
    const checks = [];
    if (scenario.minRatio !== undefined) checks.push(ratio >= scenario.minRatio);
    if (scenario.maxP99Ms !== undefined) checks.push(result.p99 <= scenario.maxP99Ms);
    if (scenario.maxRssMb !== undefined) checks.push(rssMb <= scenario.maxRssMb);
    if (result.non2xx > 0 || result.errors > 0) checks.push(false);
    // Beside the req/s ratio, the hello world's CPU per request over the scenario's (on the same reference only).
    const cpuRatio =
      !result.reference && result.cpuUsPerRequest && base.cpuUsPerRequest
        ? base.cpuUsPerRequest / result.cpuUsPerRequest
        : null;
    const row = {
      backend,
      name: scenario.name,
      ...result,
      rssMb,
      ratio,
      cpuRatio,
      baseCpuUs: base.cpuUsPerRequest,
      reference: reference.name,
      referenceRps: reference.rps,
      target: scenario.target ?? '',
      pass: checks.every(Boolean),
    };
    console.log(
      `[${backend}] ${scenario.name}: ${result.rps.toFixed(0)} req/s (${ratio.toFixed(2)}x ${reference.name}), p50 ${result.p50} ms, p99 ${result.p99} ms, RSS ${rssMb === null ? '-' : rssMb.toFixed(0)} MB${cpuText(row)}${result.non2xx ? `, ${result.non2xx} non-2xx!` : ''}${checks.length ? (row.pass ? '  ok' : '  MISSED') : ''}`,
    );
    return row;
  } catch (err) {
    console.log(`[${backend}] ${scenario.name}: FAILED ${err}`);
    return { backend, name: scenario.name, error: String(err), pass: false };
  } finally {
    if (svc && process.env.BENCH_SHOW_OUTPUT) console.log(svc.output());
    await svc?.stop();
  }
}

const rows = [];
console.log(
  `bench: ${DURATION}s per scenario${REPEAT > 1 ? `, median of ${REPEAT} runs` : ''}, ${CONNECTIONS} connections, backends ${backends.join(', ')}`,
);
for (const backend of backends) {
  const baselineProc = await startProcess([path.join(ROOT, 'bench/baseline.mjs')]);
  for (const scenario of scenarios) {
    if (only && !only.some((o) => scenario.name.includes(o))) continue;
    if (scenario.backends && !scenario.backends.includes(backend)) continue;
    // BENCH_REPEAT > 1: the scenario is measured that many times, each next to
    // its own baseline, and its row is the run with the median ratio.
    const runs = [];
    for (let rep = 0; rep < REPEAT; rep++) runs.push(await measure(scenario, backend, baselineProc));
    const ok = runs.filter((r) => !r.error).sort((a, b) => a.ratio - b.ratio);
    const row = ok.length ? { ...ok[Math.floor((ok.length - 1) / 2)], ratios: ok.map((r) => r.ratio) } : runs[0];
    if (runs.some((r) => r.error)) row.pass = false;
    rows.push(row);
    if (REPEAT > 1 && ok.length)
      console.log(
        `[${backend}] ${scenario.name}: median ${row.ratio.toFixed(2)}x of ${ok.length} (${row.ratios.map((x) => x.toFixed(2)).join(', ')})${row.pass ? '' : '  MISSED'}`,
      );
  }
  await baselineProc.stop();
}

console.log(
  `\n| backend | scenario | req/s | p50 ms | p99 ms | RSS MB | ratio${REPEAT > 1 ? ' (median; all runs)' : ''} | against | CPU us/req (hello world's: ratio) | target | |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  if (r.error) {
    console.log(`| ${r.backend} | ${r.name} | error: ${r.error} | | | | | | | | MISSED |`);
    continue;
  }
  console.log(
    `| ${r.backend} | ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.rssMb === null ? '' : r.rssMb.toFixed(0)} | ${r.ratio.toFixed(2)}${r.ratios?.length > 1 ? ` (${r.ratios.map((x) => x.toFixed(2)).join(', ')})` : ''} | ${r.reference ?? ''}${r.referenceRps ? ` (${r.referenceRps.toFixed(0)}/s)` : ''} | ${cpuFigure(r)} | ${r.target ?? ''} | ${r.pass === undefined ? '' : r.pass ? 'ok' : 'MISSED'} |`,
  );
}
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/last.json'), JSON.stringify(rows, null, 2));
process.exit(rows.some((r) => r.pass === false) ? 1 : 0);
