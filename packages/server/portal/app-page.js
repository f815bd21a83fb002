// app-page.js - one of the studio's apps, in tabs: its notification events and their attempts (events.js), its
// game-call log (4.8-4.10) and consumption notices (4.6) (logs.js), and its settings (settings.js).
import { ErrorBox, html, useApi } from '/portal/ui.js';
import { Events } from '/portal/events.js';
import { GameCalls, Notices } from '/portal/logs.js';
import { Settings } from '/portal/settings.js';

const TABS = [
  ['events', 'Events'],
  ['game-calls', 'Game calls'],
  ['notices', 'Consumption notices'],
  ['settings', 'Settings'],
];

export function AppPage({ appId, tab, query }) {
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
  if (tab === 'game-calls') body = html`<${GameCalls} appId=${a.appId} />`;
  else if (tab === 'notices') body = html`<${Notices} appId=${a.appId} />`;
  else if (tab === 'settings') body = html`<${Settings} app=${a} onSaved=${app.reload} />`;
  else body = html`<${Events} appId=${a.appId} eventId=${query.event} />`;
  return html`<section>
    <h1>${a.name} <span class="muted">app ${a.appId}</span></h1>
    <p class="tabs">
      ${TABS.map(
        ([key, label]) => html`<a href=${`#/apps/${a.appId}/${key}`} class=${key === tab ? 'active' : ''}>${label}</a>`,
      )}
    </p>
    ${body}
  </section>`;
}
