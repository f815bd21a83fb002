import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

/**
 * The example alert rules (docs/alerts.yml) under Prometheus's own `promtool` (Debian's `prometheus` package; .ci/run
 * installs it). A missing promtool fails the test with the line that installs it: never skipped.
 *
 * An alert is shown to fire from the service's real /metrics scrapes: each scrape becomes one step of promtool's input
 * series (scrape i is minute i: tests compress time, and lower the alert's threshold and `for` to fit), and
 * `promtool test rules` must find the alert firing at the last scrape and not at the first.
 */

export const ALERT_RULES_FILE = fileURLToPath(new URL('../../../../docs/alerts.yml', import.meta.url));
export const PROMTOOL_INSTALL = 'apt-get update && apt-get install -y --no-install-recommends prometheus';

/** Runs promtool; a missing binary fails with how to install it. */
export function promtool(args: string[], cwd?: string): { status: number; output: string } {
  const bin = process.env.PROMTOOL ?? 'promtool';
  const r = spawnSync(bin, args, { cwd, encoding: 'utf8' });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    assert.fail(
      code === 'ENOENT'
        ? `promtool (Debian's prometheus package) is missing. Install it: ${PROMTOOL_INSTALL}`
        : `promtool could not run: ${r.error.message}`,
    );
  }
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  annotations?: Record<string, string>;
}

/** The rules of docs/alerts.yml, by alert name. */
export function alertRules(): Map<string, Rule> {
  const doc = parse(fs.readFileSync(ALERT_RULES_FILE, 'utf8')) as { groups: Array<{ rules: Rule[] }> };
  return new Map(doc.groups.flatMap((g) => g.rules).map((r) => [r.alert!, r]));
}

/** The metric names an expression uses (histogram series map to their histogram). */
export function metricsNamed(expr: string): string[] {
  // Label matchers, grouping clauses and function names are not metrics.
  const bare = expr
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '')
    .replace(/\b[a-z_]+\s*\(/g, '(');
  const names = new Set<string>();
  for (const [name] of bare.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g))
    names.add(name.replace(/_(bucket|count|sum)$/, ''));
  return [...names].sort();
}

/** Successive /metrics scrapes, kept as promtool input series (one value per scrape; `_` where a series was absent). */
export class Scrapes {
  readonly #series = new Map<string, string[]>();
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Adds one scrape (the Prometheus text format). */
  add(text: string): void {
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) continue;
      const space = line.lastIndexOf(' ');
      const series = line.slice(0, space);
      const value = Number(line.slice(space + 1));
      let values = this.#series.get(series);
      if (!values) {
        values = Array.from({ length: this.#count }, () => '_');
        this.#series.set(series, values);
      }
      values.push(Number.isFinite(value) ? String(value) : '_');
    }
    this.#count++;
    for (const values of this.#series.values()) while (values.length < this.#count) values.push('_');
  }

  /** The last value of a series, or undefined. */
  last(series: string): number | undefined {
    const v = this.#series.get(series)?.at(-1);
    return v === undefined || v === '_' ? undefined : Number(v);
  }

  /**
   * The series of these metrics, for promtool. `shift` subtracts a time (Unix seconds) from timestamp gauges
   * (`*_timestamp_seconds`): promtool's clock starts at 0.
   */
  inputSeries(metrics: string[], shift = 0): Array<{ series: string; values: string }> {
    const out: Array<{ series: string; values: string }> = [];
    for (const [series, values] of this.#series) {
      const name = series.replace(/\{.*$/, '');
      if (!metrics.some((m) => name === m || name.startsWith(`${m}_`))) continue;
      const timestamp = shift !== 0 && name.endsWith('_timestamp_seconds');
      out.push({
        series,
        values: values.map((v) => (timestamp && v !== '_' ? String(Number(v) - shift) : v)).join(' '),
      });
    }
    return out;
  }
}

/** Scrapes /metrics `times` times, `everyMs` apart, into `scrapes`. */
export async function scrapeEvery(
  scrapes: Scrapes,
  metricsText: () => Promise<string>,
  times: number,
  everyMs: number,
): Promise<void> {
  for (let i = 0; i < times; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, everyMs));
    scrapes.add(await metricsText());
  }
}

export interface FiringCheck {
  alert: string;
  scrapes: Scrapes;
  /** The alert's threshold for the test (the number its expression compares with). */
  threshold?: number;
  /** Its `for` for the test (scrape i is minute i). */
  for?: string;
  /** Timestamp gauges are shifted by this (Unix seconds): see Scrapes.inputSeries. */
  shift?: number;
  /** Expected firing labels beyond alertname (e.g. { reason: 'host' }); checked when given. */
  labels?: Record<string, string>;
}

/**
 * Runs `promtool test rules` on the alert of docs/alerts.yml (threshold and `for` lowered as given) over the
 * scrapes: it must not fire at the first scrape and must fire at the last. Answers promtool's output.
 */
export function assertAlertFires(c: FiringCheck): string {
  const rule = alertRules().get(c.alert);
  assert.ok(rule, `docs/alerts.yml has the alert ${c.alert}`);
  let expr = rule.expr.trim();
  if (c.threshold !== undefined) {
    assert.match(expr, /[<>]=?\s*[0-9.]+$/, `the expression of ${c.alert} ends with its threshold`);
    expr = expr.replace(/([<>]=?)\s*[0-9.]+$/, `$1 ${c.threshold}`);
  }
  const testRule: Rule = { ...rule, expr, ...(c.for !== undefined ? { for: c.for } : {}) };
  if (c.for === '0m') delete testRule.for;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-promtool-'));
  try {
    fs.writeFileSync(path.join(dir, 'rules.yml'), stringify({ groups: [{ name: 'test', rules: [testRule] }] }));
    const last = c.scrapes.count - 1;
    const selector = `ALERTS{alertname="${c.alert}",alertstate="firing"${Object.entries(c.labels ?? {})
      .map(([k, v]) => `,${k}="${v}"`)
      .join('')}}`;
    const test = {
      rule_files: ['rules.yml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: c.scrapes.inputSeries(metricsNamed(rule.expr), c.shift),
          promql_expr_test: [
            { expr: `max(${selector})`, eval_time: '0m', exp_samples: [] },
            { expr: `max(${selector})`, eval_time: `${last}m`, exp_samples: [{ labels: '{}', value: 1 }] },
          ],
        },
      ],
    };
    assert.ok(test.tests[0]!.input_series.length > 0, `the scrapes have the series of ${c.alert}`);
    fs.writeFileSync(path.join(dir, 'test.yml'), stringify(test));
    const r = promtool(['test', 'rules', 'test.yml'], dir);
    assert.equal(
      r.status,
      0,
      `promtool: ${c.alert} should not fire at the first scrape and fire at the last (${last}m):\n${r.output}\n` +
        `rule: ${JSON.stringify(testRule)}\nseries:\n${test.tests[0]!.input_series.map((s) => `${s.series} ${s.values}`).join('\n')}`,
    );
    return r.output;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
