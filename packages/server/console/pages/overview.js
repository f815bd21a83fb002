// @ts-check
// pages/overview.js - the console's opening page ("look, don't read"): delivery, latency, failures, orders, game
// calls and the report queue of a window and an app, each figure a link to the list of the rows behind it.
import { Chart } from '/console/chart.js';
import { FirstRun } from '/console/pages/firstrun.js';
import { ErrorBox, FilterForm, Loading, href, html, localText, navigate, time, useApi } from '/console/ui.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const RANGES = { '24h': DAY, '7d': 7 * DAY, '31d': 31 * DAY };

/** The API query of the page's route: from/to as given, else the last `range` (default 24 h) to now. */
export function overviewQuery(q) {
  if (q.from || q.to) return { from: q.from, to: q.to, appId: q.appId };
  const span = RANGES[q.range] ?? DAY;
  const to = Math.ceil(Date.now() / HOUR) * HOUR; // to the next whole hour, so the buckets are whole
  return { from: new Date(to - span).toISOString(), to: new Date(to).toISOString(), appId: q.appId };
}

const LATENCY_COLORS = { p99: '#c62828', p90: '#f9a825', p50: '#2e7d32' };
// An hour in the operator's time zone; a day is a UTC day (the API's bucket), so it keeps its UTC date.
const hourLabel = (iso) => localText(iso, 'short');
const dayLabel = (iso) => iso.slice(0, 10);

/**
 * The charts of an overview answer (GET /admin/v1/overview). `links` builds the href of the rows behind a figure:
 * { events, orders, supplements, gameCalls, reports } each (filter) -> href; a portal hands its own, and a page
 * without a list of some rows leaves its builder out: those figures are shown without a link.
 */
export function OverviewCharts({ data, links }) {
  // A series' link, or none when the page has no list of those rows.
  const linkIf = (make, link) => (make ? link : undefined);
  const from = Date.parse(data.from);
  const to = Date.parse(data.to);
  const appId = data.appId ?? undefined;
  // A bucket's rows, clipped to the window: what the list route answers for the same figure.
  const clip = (start, size) => ({
    from: new Date(Math.max(start, from)).toISOString(),
    to: new Date(Math.min(start + size, to)).toISOString(),
  });
  const window = { from: data.from, to: data.to };
  const hours = data.notifications;
  const hourLink = (state) => (i) => links.events({ appId, state, ...clip(Date.parse(hours[i].hour), HOUR) });
  const days = data.commerce;
  const dayWindow = (i) => clip(Date.parse(days[i].day), DAY);
  const lat = data.latency;
  const fails = data.failureReasons;
  const calls = data.gameCallFailures;
  const reports = data.openReports;
  // The x axes of the hourly and the daily charts: a label and a key per bucket.
  const byHour = { labels: hours.map((h) => hourLabel(h.hour)), keys: hours.map((h) => h.hour) };
  const byDay = { labels: days.map((d) => dayLabel(d.day)), keys: days.map((d) => d.day) };
  // A series of `rows`' figures at `key`, each bucket linking to the rows behind it (`link(i)`, or none).
  const figuresOf = (rows, key, label, link, color) => ({ key, label, color, values: rows.map((r) => r[key]), link });
  // The orders of day i that `filter` selects; the game calls of app and kind i (`filter`: the failed ones).
  const ordersOn = (filter) => linkIf(links.orders, (i) => links.orders({ appId, ...filter, ...dayWindow(i) }));
  const windowEvents = () => links.events({ appId, ...window });
  const pendingSupplements = linkIf(links.supplements, () => links.supplements({ appId, status: 'pending' }));
  const callsOf = (filter) => (i) => links.gameCalls(calls[i].appId, { kind: calls[i].kind, ...filter, ...window });
  return html`<div class="overview-grid">
    <${Chart}
      id="notifications"
      kind="lines"
      title="Notifications per hour by outcome (state now)"
      ...${byHour}
      series=${[
        figuresOf(hours, 'delivered', 'Delivered', hourLink('delivered')),
        figuresOf(hours, 'retrying', 'Retrying', hourLink('pending')),
        figuresOf(hours, 'dead', 'Dead', hourLink('dead')),
      ]}
    />
    <${Chart}
      id="success-rate"
      kind="lines"
      unit="%"
      title="Delivery success rate per hour"
      ...${byHour}
      series=${[
        {
          key: 'successRate',
          label: 'Success %',
          values: hours.map((h) => (h.successRate === null ? null : Math.round(h.successRate * 1000) / 10)),
          link: (i) => links.events({ appId, ...clip(Date.parse(hours[i].hour), HOUR) }),
        },
      ]}
    />
    <${Chart}
      id="latency"
      unit=" ms"
      title="Attempt latency per destination (bucket upper bound)"
      labels=${lat.map((d) => d.url ?? '(no URL)')}
      series=${['p99', 'p90', 'p50'].map((p) => figuresOf(lat, p, p, windowEvents, LATENCY_COLORS[p]))}
    />
    <${Chart}
      id="failures"
      title="Top failure reasons of delivery attempts"
      labels=${fails.map((f) => (f.httpStatus === null ? f.outcome : `${f.outcome} ${f.httpStatus}`))}
      series=${[figuresOf(fails, 'attempts', 'Attempts', windowEvents)]}
    />
    <${Chart}
      id="commerce"
      kind="lines"
      title="Orders, payments, refunds (of them web refunds and disputes lost) and pending supplements per day"
      ...${byDay}
      series=${[
        figuresOf(days, 'orders', 'Orders', ordersOn({ trxType: 0 })),
        figuresOf(days, 'payments', 'Payments', ordersOn({ trxType: 0, status: 0 })),
        figuresOf(days, 'refunds', 'Refunds', ordersOn({ trxType: 2 })),
        figuresOf(days, 'webRefunds', 'Web refunds', null),
        figuresOf(days, 'disputesLost', 'Disputes lost', null),
        figuresOf(days, 'pendingSupplements', 'Pending supplements', pendingSupplements),
      ]}
    />
    <${Chart}
      id="game-calls"
      title="Game-call failures per app (4.8-4.10)"
      labels=${calls.map((c) => `app ${c.appId} ${c.kind}`)}
      keys=${calls.map((c) => `${c.appId}/${c.kind}`)}
      series=${[
        figuresOf(calls, 'calls', 'All tries', callsOf({}), '#90a4ae'),
        figuresOf(calls, 'failures', 'Failed', callsOf({ failed: 'true' }), '#c62828'),
      ]}
    />
    ${
      links.reports
        ? html`<${Chart}
            id="reports"
            title="Open report queue per app (now)"
            empty="No open reports."
            labels=${reports.map((r) => `app ${r.appId}`)}
            keys=${reports.map((r) => String(r.appId))}
            series=${[figuresOf(reports, 'open', 'Open', (i) => links.reports({ status: 'open', appId: reports[i].appId }))]}
          />`
        : null
    }
  </div>`;
}

/** The console's links to its list pages. */
export const CONSOLE_LINKS = {
  events: (q) => href('/events', q),
  orders: (q) => href('/orders', q),
  supplements: (q) => href('/supplements', q),
  gameCalls: (appId, q) => href(`/apps/${appId}/game-calls`, q),
  reports: (q) => href('/reports', q),
};

/** The window select: the range that applies (24 h unless another, or from/to, is in the route). */
const RANGE_OPTIONS = [
  ['24h', 'Last 24 hours'],
  ['7d', 'Last 7 days'],
  ['31d', 'Last 31 days'],
  ['custom', 'From and to below'],
];
const appliedRange = (q) => (q.from || q.to ? 'custom' : RANGES[q.range] ? q.range : '24h');

/** The route of the filter form's values: from and to when typed (or "From and to below" picked), else the range. */
function windowOf(v, applied) {
  const custom = v.range === 'custom' || ((v.from || v.to) && v.range === applied);
  return custom ? { ...v, range: '' } : { ...v, from: '', to: '' };
}

export function OverviewPage({ route }) {
  const q = route.query;
  const query = overviewQuery(q);
  /** @type {import('page-types').ReadOf<'/admin/v1/overview'>} */
  const { data, error, loading } = useApi('GET', '/overview', { query }, [JSON.stringify(query)]);
  return html`<section>
    <h1>Overview</h1>
    <${FirstRun} />
    <${FilterForm}
      key=${JSON.stringify(q)}
      query=${{ ...q, range: appliedRange(q) }}
      onApply=${(v) => navigate('/overview', windowOf(v, appliedRange(q)))}
      fields=${[
        { name: 'appId', label: 'App id', size: 6 },
        { name: 'range', label: 'Window', as: 'select', options: RANGE_OPTIONS },
        { name: 'from', label: 'From (ISO)', size: 22 },
        { name: 'to', label: 'To (ISO)', size: 22 },
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} what="the overview" />`
        : data
          ? html`<p class="muted window" data-from=${data.from} data-to=${data.to}>
                ${time(data.from)} to ${time(data.to)}${data.appId === null ? ', all apps' : `, app ${data.appId}`}
              </p>
              <${OverviewCharts} data=${data} links=${CONSOLE_LINKS} />`
          : null
    }
  </section>`;
}
