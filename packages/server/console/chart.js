// @ts-check
// chart.js - one overview chart: a uPlot canvas for the eye, and behind a "Show data" toggle beside it (a <details>,
// so no script and nothing lost to a screen reader) an accessible table of the same figures, each a link to the rows
// behind it. The figures carry data attributes (data-chart, data-series, data-x) so tests
// and scripts read what the chart draws. Shared by every page that shows an overview (the console; the studio portal
// imports it through OverviewCharts with its own links).
import { useEffect, useRef } from '/console/vendor/hooks.module.js';
import uPlot from '/console/vendor/uPlot.esm.js';
import { html } from '/console/ui.js';

/** The width a chart takes: its box's (the card's inner width); the canvas never makes the card wider. */
const plotWidth = (el) => Math.max(120, Math.floor(el.clientWidth || 600));

/**
 * An axis label short enough to stay whole under its tick: a URL without its scheme, and when still too long its host
 * and as many of its path's last segments as fit ("127.0.0.1:4000/…/pay/callback"); other long text is cut in the
 * middle. The legend and the data table show it whole.
 */
export function shortLabel(label, max = 28) {
  let text = label;
  const url = /^https?:\/\/([^/?#]+)([^?#]*)/i.exec(label);
  if (url) {
    const [, host, path] = url;
    text = `${host}${path === '/' ? '' : path}`;
    const parts = path.split('/').filter(Boolean);
    for (let keep = parts.length - 1; text.length > max && keep >= 1; keep--)
      text = `${host}/…/${parts.slice(-keep).join('/')}`;
  }
  if (text.length <= max) return text;
  const keep = Math.floor((max - 1) / 2);
  return `${text.slice(0, keep)}…${text.slice(-keep)}`;
}

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
    const bars = kind === 'bars' ? uPlot.paths.bars?.({ size: [0.6, 60], align: 0 }) : undefined;
    let focused = 1;
    const plot = new uPlot(
      {
        width: plotWidth(box.current),
        height: 220,
        legend: { show: true },
        cursor: { focus: { prox: 30 } },
        scales: {
          x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          {
            space: 90,
            values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? shortLabel(labels[t] ?? '') : '')),
          },
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
    // The chart follows its card's width: redrawn at the new width whenever the box is resized (window, grid).
    const el = box.current;
    let width = plotWidth(el);
    const resized = new ResizeObserver(() => {
      const next = plotWidth(el);
      if (next !== width) plot.setSize({ width: (width = next), height: 220 });
    });
    resized.observe(el);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
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
                        <th scope="row" title=${label}>${label}</th>
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
