// @ts-check
// app-page.js - one of the studio's apps, in tabs: its overview (overview.js), its notification events and their attempts (events.js), its
// game-call log (4.8-4.10) and consumption notices (4.6) (logs.js), its players with the most refunds and a player's
// orders (refunds.js), and its settings (settings.js).
import { ErrorBox, html, useApi } from '/portal/ui.js';
import { Events } from '/portal/events.js';
import { GameCalls, Notices } from '/portal/logs.js';
import { Settings } from '/portal/settings.js';
import { Overview } from '/portal/overview.js';
import { PlayerOrders, Refunders } from '/portal/refunds.js';

const TABS = [
  ['overview', 'Overview'],
  ['events', 'Events'],
  ['game-calls', 'Game calls'],
  ['notices', 'Consumption notices'],
  ['refunds', 'Refund abuse'],
  ['settings', 'Settings'],
];

export function AppPage({ appId, tab, query }) {
  /** @type {import('page-types').ReadOf<'/portal/v1/apps/{appId}'>} */
  const app = useApi(`/apps/${encodeURIComponent(appId)}`, {}, [appId]);
  if (app.error)
    return html`<section class="refused">
      <h1>App ${appId}</h1>
      <p class="notfound">This app is not one of yours.</p>
      <${ErrorBox} error=${app.error} />
      <p><a href="#/apps">Back to your apps</a></p>
    </section>`;
  if (!app.data) return html`<p class="muted">Loading…</p>`;
  const a = app.data;
  let body;
  // The list views take the filters of an overview figure's link (state/kind/failed and the window).
  const filters = { state: query.state, kind: query.kind, failed: query.failed, from: query.from, to: query.to };
  const key = JSON.stringify(filters);
  if (tab === 'overview') body = html`<${Overview} appId=${a.appId} query=${query} />`;
  else if (tab === 'game-calls') body = html`<${GameCalls} key=${key} appId=${a.appId} filters=${filters} />`;
  else if (tab === 'notices') body = html`<${Notices} appId=${a.appId} />`;
  else if (tab === 'refunds')
    body = html`<${Refunders} key=${JSON.stringify(query)} appId=${a.appId} query=${query} />`;
  else if (tab === 'player-orders')
    body = html`<${PlayerOrders} appId=${a.appId} userId=${query.userId} before=${query.before} />`;
  else if (tab === 'settings') body = html`<${Settings} app=${a} onSaved=${app.reload} />`;
  else body = html`<${Events} key=${key} appId=${a.appId} eventId=${query.event} filters=${filters} />`;
  return html`<section>
    <h1>${a.name} <span class="muted">app ${a.appId}</span></h1>
    <nav class="tabs app-tabs" aria-label="App sections">
      ${TABS.map(
        ([key, label]) => html`<a href=${`#/apps/${a.appId}/${key}`} class=${key === tab ? 'active' : ''}>${label}</a>`,
      )}
    </nav>
    ${body}
  </section>`;
}
