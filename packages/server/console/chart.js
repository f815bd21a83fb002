// chart.js - one overview chart: a uPlot canvas for the eye, and behind a "Show data" toggle beside it (a <details>,
// so no script and nothing lost to a screen reader) an accessible table of the same figures, each a link to the rows
// behind it. The figures carry data attributes (data-chart, data-series, data-x) so tests
// and scripts read what the chart draws. Shared by every page that shows an overview (the console; the studio portal
// imports it through OverviewCharts with its own links).
import { useEffect, useRef } from '/console/vendor/hooks.module.js';
import uPlot from '/console/vendor/uPlot.esm.js';
import { html } from '/console/ui.js';

const COLORS = ['#2e7d32', '#f9a825', '#c62828', '#1565c0', '#6a1b9a', '#00838f'];

/**
 * props: id (data-chart), title, labels (one per x point, shown in the table and on the axis), keys (data-x of
 * each point, default the labels), series
 * [{ key, label, values: number[], link?(i) -> href, color? }], kind 'bars' | 'lines', unit (axis suffix).
 */
export function Chart({
  id,
  title,
  labels,
  keys = labels,
  series,
  kind = 'bars',
  unit = '',
  empty = 'No traffic in this window.',
}) {
  const box = useRef(null);
  useEffect(() => {
    if (!box.current || labels.length === 0) return undefined;
    const xs = labels.map((_, i) => i);
    // Bars of several series overlap at one x: the caller orders them largest first (p99 before p50, all tries
    // before failures), so each stays visible in front of the one before.
    const bars = kind === 'bars' ? uPlot.paths.bars({ size: [0.6, 60], align: 0 }) : undefined;
    const short = (label) => (label.length > 18 ? `${label.slice(0, 8)}...${label.slice(-8)}` : label);
    let focused = 1;
    const plot = new uPlot(
      {
        width: Math.max(320, Math.min(900, box.current.clientWidth || 600)),
        height: 220,
        legend: { show: true },
        cursor: { focus: { prox: 30 } },
        scales: {
          x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          { space: 90, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? short(labels[t] ?? '') : '')) },
          { size: 70, values: (_u, ticks) => ticks.map((t) => `${t}${unit}`) },
        ],
        series: [
          { label: '', value: (_u, v) => (v === null || v === undefined ? '' : (labels[v] ?? '')) },
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.color ?? COLORS[i % COLORS.length],
            fill: kind === 'bars' ? `${s.color ?? COLORS[i % COLORS.length]}99` : undefined,
            width: kind === 'bars' ? 0 : 2,
            points: { show: kind !== 'bars' },
            paths: bars,
          })),
        ],
        hooks: {
          setSeries: [(_u, i) => i && (focused = i)],
          ready: [
            (u) =>
              // A click on the plot opens the rows behind the point under the cursor (of the focused series).
              u.over.addEventListener('click', () => {
                const s = series[focused - 1];
                const idx = u.cursor.idx;
                if (s?.link && idx !== null && idx !== undefined) location.hash = s.link(idx).replace(/^#/, '');
              }),
          ],
        },
      },
      [xs, ...series.map((s) => s.values)],
      box.current,
    );
    return () => plot.destroy();
  }, [JSON.stringify({ labels, series: series.map((s) => s.values) })]);

  return html`<figure class="chart" data-chart=${id}>
    <figcaption>${title}</figcaption>
    ${
      labels.length === 0
        ? html`<p class="muted empty">${empty}</p>`
        : html`<div class="plot" ref=${box} aria-hidden="true"></div>
            <details class="chart-data">
              <summary>Show data</summary>
              <table class="figures">
                <thead>
                  <tr>
                    <th scope="col"></th>
                    ${series.map((s) => html`<th scope="col">${s.label}</th>`)}
                  </tr>
                </thead>
                <tbody>
                  ${labels.map(
                    (label, i) =>
                      html`<tr>
                        <th scope="row">${label}</th>
                        ${series.map((s) => {
                          const v = s.values[i];
                          const text = v === null || v === undefined ? '-' : String(v);
                          const attrs = { 'data-series': s.key, 'data-x': keys[i], 'data-value': v ?? '' };
                          return html`<td>
                            ${s.link ? html`<a href=${s.link(i)} ...${attrs}>${text}</a>` : html`<span ...${attrs}>${text}</span>`}
                          </td>`;
                        })}
                      </tr>`,
                  )}
                </tbody>
              </table>
            </details>`
    }
  </figure>`;
}
