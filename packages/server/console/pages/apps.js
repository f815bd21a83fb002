// pages/apps.js - apps: list, create (secret shown once), detail with edit, rotate secret, order settings, store settings and delivery tools, and the per-app products, game-call log, store messages and refund abuse.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  ConfirmButton,
  Details,
  ErrorBox,
  ListPage,
  LoadFailed,
  Loading,
  SecretOnce,
  href,
  html,
  show,
  time,
  useAction,
  useApi,
} from '/console/ui.js';
import { EditButton, EditOrShow, Fields, SubmitForm, useForm, useWrite } from '/console/kit/form.js';
import { GameCallsPage } from '/console/pages/gamecalls.js';
import { ProductsPage } from '/console/pages/products.js';
import { DeliveryTools, OrderSettingsPanel } from '/console/pages/apptools.js';
import { PrecheckTextsPanel, WebPaySettingsPanel } from '/console/pages/webpay.js';
import { StoreSettingsPanel } from '/console/pages/stores.js';
import { StoreMessagesPage } from '/console/pages/storemessages.js';
import { RefundersPage } from '/console/pages/refunders.js';
import { PaymentProvidersPanel, ProviderMessagesPage } from '/console/pages/providers.js';

const URL_FIELDS = [
  ['roleQueryUrl', 'Role query URL (4.8)'],
  ['roleListUrl', 'Role list URL (4.9)'],
  ['preOrderCheckUrl', 'Pre-order check URL (4.10)'],
  ['cancellationCallbackUrl', 'Cancellation callback URL'],
  ['partnerUrl', 'Partner URL (consumption notices)'],
];

/** "serverId = URL" per line; a line with only a URL is `default`. */
export function parseCallbackUrls(text) {
  const map = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(line);
    if (m) map[m[1]] = m[2];
    else map.default = line;
  }
  return map;
}

const formatCallbackUrls = (map) =>
  Object.entries(map ?? {})
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
const parseList = (text) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function formFrom(app) {
  return {
    name: app?.name ?? '',
    region: app?.region ?? 'overseas',
    status: app?.status ?? 'active',
    callbackUrls: formatCallbackUrls(app?.callbackUrls),
    allowedIps: (app?.allowedIps ?? []).join('\n'),
    unionIdEnabled: app?.unionIdEnabled ?? false,
    ...Object.fromEntries(URL_FIELDS.map(([k]) => [k, app?.[k] ?? ''])),
  };
}

/** The request body of a form: on create empty URLs are left out, on edit they are cleared (null). */
function bodyFrom(form, editing) {
  const body = {
    name: form.name,
    region: form.region,
    callbackUrls: parseCallbackUrls(form.callbackUrls),
    allowedIps: parseList(form.allowedIps),
    unionIdEnabled: form.unionIdEnabled,
  };
  if (editing) body.status = form.status;
  for (const [k] of URL_FIELDS) {
    const v = form[k].trim();
    if (v) body[k] = v;
    else if (editing) body[k] = null;
  }
  return body;
}

/** The fields of the app form; `status` only when editing (a new app starts active). */
const APP_FIELDS = [
  { key: 'name', label: 'Name', required: true, maxlength: '100' },
  { key: 'region', label: 'Region', as: 'select', options: ['overseas', 'mainland'] },
  { key: 'status', label: 'Status', as: 'select', options: ['active', 'disabled'] },
  {
    key: 'callbackUrls',
    label: 'Payment callback URLs (4.7)',
    as: 'textarea',
    rows: '3',
    hint: 'One per line: serverId = URL. A line with only a URL is the default.',
  },
  ...URL_FIELDS.map(([key, label]) => ({ key, label, placeholder: 'https://...' })),
  {
    key: 'allowedIps',
    label: 'Allowed IPs (open id lookup, 4.4)',
    as: 'textarea',
    rows: '2',
    hint: 'IPs or CIDRs, one per line or comma-separated.',
  },
  { key: 'unionIdEnabled', label: 'Profile answers carry unionId', type: 'checkbox' },
];
const NEW_APP_FIELDS = APP_FIELDS.filter((f) => f.key !== 'status');

function AppForm({ initial, editing, submitLabel, onSubmit, busy }) {
  const [form, set] = useForm(() => formFrom(initial));
  return html`<${SubmitForm} onSubmit=${() => onSubmit(bodyFrom(form, editing))}>
    <${Fields} fields=${editing ? APP_FIELDS : NEW_APP_FIELDS} form=${form} set=${set} />
    <button type="submit" disabled=${busy}>${submitLabel}</button>
  <//>`;
}

/** The apps, declared for the kit's ListPage. */
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

function AppDetail({ appId }) {
  const { data: app, error, loading, reload } = useApi('GET', `/apps/${encodeURIComponent(appId)}`, {}, [appId]);
  const [editing, setEditing] = useState(false);
  const save = useWrite(
    (body) => api('PATCH', `/apps/${encodeURIComponent(appId)}`, { body }),
    () => {
      setEditing(false);
      reload();
    },
  );
  const rotate = useAction(() => api('POST', `/apps/${encodeURIComponent(appId)}/rotate-secret`));
  if (loading && !app) return html`<${Loading} what="app" />`;
  if (error) return html`<${LoadFailed} title=${`App ${appId}`} error=${error} back="#/apps" backLabel="All apps" />`;
  return html`<section>
    <h1>${app.name} <span class="muted">app ${app.appId}</span></h1>
    <p class="links">
      <a href=${href('/events', { appId: app.appId })}>Delivery events</a>${' · '}
      <a href=${href(`/apps/${app.appId}/game-calls`)}>Game-call log</a>${' · '}
      <a href=${href(`/apps/${app.appId}/game-calls`, { failed: 'true' })}>Failed game calls</a>${' · '}
      <a href=${href('/reports', { appId: app.appId })}>Reports</a>${' · '}
      <a href=${href('/orders', { appId: app.appId })}>Orders</a>${' · '}
      <a href=${href(`/apps/${app.appId}/products`)}>Products</a>${' · '}
      <a href=${href('/consumption', { appId: app.appId })}>Consumption notices</a>${' · '}
      <a href=${href(`/apps/${app.appId}/store-messages`)}>Store messages</a>${' · '}
      <a href=${href(`/apps/${app.appId}/refunders`)}>Refund abuse</a>
      <a href=${href(`/apps/${app.appId}/provider-messages`)}>Provider messages</a>
    </p>
    <${ErrorBox} error=${save.error} />
    <${ErrorBox} error=${rotate.error} />
    ${
      rotate.result
        ? html`<${SecretOnce} label="New md5 secret" value=${rotate.result.secret} />
            <p class="muted">The previous secret stays valid until ${time(rotate.result.previousSecretExpiresAt)}.</p>`
        : null
    }
    <${EditOrShow}
      editing=${editing}
      onCancel=${() => setEditing(false)}
      Form=${AppForm}
      formProps=${{ initial: app }}
      save=${save}
    >
      <${Details}
        rows=${[
          ['Client id', html`<code>${app.clientId}</code>`],
          ['Status', app.status],
          ['Region', app.region],
          [
            'Payment callback URLs',
            Object.keys(app.callbackUrls).length
              ? html`<ul>
                  ${Object.entries(app.callbackUrls).map(([k, v]) => html`<li><code>${k}</code>: ${v}</li>`)}
                </ul>`
              : show(null),
          ],
          ...URL_FIELDS.map(([k, label]) => [label, show(app[k])]),
          ['Allowed IPs', app.allowedIps.length ? app.allowedIps.join(', ') : show(null)],
          ['unionId in profiles', app.unionIdEnabled ? 'yes' : 'no'],
          ['Secret rotated', time(app.secretRotatedAt)],
          ['Previous secret valid until', time(app.previousSecretExpiresAt)],
          ['Created', time(app.createdAt)],
          ['Updated', time(app.updatedAt)],
        ]}
      />
      <p class="actions">
        <${EditButton} save=${save} onEdit=${() => setEditing(true)}>Edit<//>
        <${ConfirmButton}
          label="Rotate secret"
          question="Issue a new secret? The current one stays valid only for the grace period."
          onConfirm=${rotate.run}
        />
      </p>
      <${OrderSettingsPanel} appId=${app.appId} />
      <${WebPaySettingsPanel} appId=${app.appId} />
      <${PrecheckTextsPanel} appId=${app.appId} />
      <${StoreSettingsPanel} appId=${app.appId} />
      <${PaymentProvidersPanel} appId=${app.appId} />
      <${DeliveryTools} appId=${app.appId} />
    <//>
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
  if (id) return html`<${AppDetail} appId=${id} />`;
  return html`<${ListPage} spec=${APP_LIST} />`;
}
