// @ts-check
// pages/apps.js - apps: list, create (secret shown once), the app's page in tabs (apptabs.js), and the per-app products,
// game-call log, store messages, provider messages and refund abuse.
import { api } from '/console/api.js';
import { Details, ErrorBox, ListPage, SecretOnce, href, html, time, useAction } from '/console/ui.js';
import { AppForm } from '/console/pages/appform.js';
import { AppDetail } from '/console/pages/apptabs.js';
import { GameCallsPage } from '/console/pages/gamecalls.js';
import { ProductsPage } from '/console/pages/products.js';
import { StoreMessagesPage } from '/console/pages/storemessages.js';
import { RefundersPage } from '/console/pages/refunders.js';
import { ProviderMessagesPage } from '/console/pages/providers.js';

/** The apps, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/apps', 'apps'>} */
const APP_LIST = {
  title: 'Apps',
  intro: html`<p><a class="button" href="#/apps/new">New app</a></p>`,
  path: '/apps',
  rows: 'apps',
  rowKey: (a) => a.appId,
  rowLink: (a) => href(`/apps/${a.appId}`),
  empty: 'No apps yet.',
  columns: [
    { label: 'App id', key: 'appId' },
    { label: 'Name', render: (a) => html`<a href=${href(`/apps/${a.appId}`)}>${a.name}</a>` },
    { label: 'Client id', render: (a) => html`<code>${a.clientId}</code>` },
    { label: 'Region', key: 'region' },
    { label: 'Status', key: 'status' },
    { label: 'Created', render: (a) => time(a.createdAt) },
  ],
};

function AppCreate() {
  const create = useAction((body) => api('POST', '/apps', { body }));
  const created = create.result;
  if (created) {
    return html`<section>
      <h1>App created: ${created.name}</h1>
      <${SecretOnce} label="md5 secret (5.1)" value=${created.secret} />
      <${Details}
        rows=${[
          ['App id', String(created.appId)],
          ['Client id', html`<code>${created.clientId}</code>`],
        ]}
      />
      <p><a href=${href(`/apps/${created.appId}`)}>Open the app</a> · <a href="#/apps">All apps</a></p>
    </section>`;
  }
  return html`<section>
    <h1>New app</h1>
    <${ErrorBox} error=${create.error} />
    <${AppForm} submitLabel="Create app" busy=${create.busy} onSubmit=${create.run} />
  </section>`;
}

export function AppsPage({ route }) {
  const [, id, sub, code] = route.segments;
  if (id === 'new') return html`<${AppCreate} />`;
  if (id && sub === 'game-calls') return html`<${GameCallsPage} appId=${id} route=${route} />`;
  if (id && sub === 'store-messages') return html`<${StoreMessagesPage} appId=${id} route=${route} />`;
  if (id && sub === 'refunders') return html`<${RefundersPage} appId=${id} route=${route} />`;
  if (id && sub === 'provider-messages') return html`<${ProviderMessagesPage} appId=${id} route=${route} />`;
  if (id && sub === 'products') return html`<${ProductsPage} appId=${id} code=${code} />`;
  if (id && sub === 'new-product') return html`<${ProductsPage} appId=${id} create />`;
  if (id) return html`<${AppDetail} appId=${id} tab=${sub ?? 'overview'} query=${route.query} />`;
  return html`<${ListPage} spec=${APP_LIST} />`;
}
