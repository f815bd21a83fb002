// @ts-check
// pages/apptabs.js - one app's page in tabs, each with its own address (#/apps/{appId}/{tab}): overview, delivery
// (the test event first), orders and payments, stores, web page and providers, settings. A tab's `?focus=` names the
// control the getting-started checklist sends the operator to (focused once the tab is shown).
import { useEffect, useRef, useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  ConfirmButton,
  Details,
  ErrorBox,
  LoadFailed,
  Loading,
  SecretOnce,
  href,
  html,
  show,
  time,
  useAction,
  useApi,
  useFocus,
} from '/console/ui.js';
import { EditButton, EditOrShow, useWrite } from '/console/kit/form.js';
import { AppForm, URL_FIELDS } from '/console/pages/appform.js';
import { OrderSettingsPanel, RecoverDeadEvents } from '/console/pages/apptools.js';
import { TestEventPanel } from '/console/pages/testevent.js';
import { PrecheckTextsPanel, WebPaySettingsPanel } from '/console/pages/webpay.js';
import { StoreSettingsPanel } from '/console/pages/stores.js';
import { PaymentProvidersPanel } from '/console/pages/providers.js';

/** The tabs: [key (the address's last segment), label, what it holds (the overview's summary)]. */
export const APP_TABS = [
  ['overview', 'Overview', ''],
  ['delivery', 'Delivery', 'Send a test event and see it arrive; recover dead events.'],
  ['orders', 'Orders and payments', 'Order settings: the web region lock, store orders of players in arrears.'],
  ['stores', 'Stores', 'App Store and Google Play settings, and the URLs to paste into their consoles.'],
  ['web', 'Web page and providers', 'The web payment page, its pre-order check texts, the payment providers.'],
  ['settings', 'Settings', 'Name, callback and game URLs, allowed IPs; rotate the md5 secret.'],
];

/** A tab's address: `appTab(3, 'delivery', { focus: 'send-test-event' })` -> `#/apps/3/delivery?focus=...`. */
export const appTab = (appId, tab, query) => href(`/apps/${appId}/${tab}`, query);

/** Links to the app's other pages, as a list (each its own item: never run together). */
function PageLinks({ links }) {
  return html`<ul class="page-links">
    ${links.map(([to, label]) => html`<li><a href=${to}>${label}</a></li>`)}
  </ul>`;
}

/** The app's other pages, by the tab they belong to. */
function linksOf(appId) {
  const app = `/apps/${appId}`;
  return {
    delivery: [
      [href('/events', { appId }), 'Delivery events'],
      [href('/events', { appId, state: 'dead' }), 'Dead events'],
      [href(`${app}/game-calls`), 'Game-call log'],
      [href(`${app}/game-calls`, { failed: 'true' }), 'Failed game calls'],
    ],
    orders: [
      [href('/orders', { appId }), 'Orders'],
      [href('/supplements', { appId }), 'Supplements'],
      [href(`${app}/products`), 'Products'],
      [href('/consumption', { appId }), 'Consumption notices'],
      [href(`${app}/refunders`), 'Refund abuse'],
      [href('/reports', { appId }), 'Reports'],
    ],
    stores: [[href(`${app}/store-messages`), 'Store messages']],
    web: [[href(`${app}/provider-messages`), 'Provider messages']],
  };
}

function OverviewTab({ app }) {
  const links = linksOf(app.appId);
  const callbacks = Object.keys(app.callbackUrls).length;
  return html`<${Details}
      rows=${[
        ['Client id', html`<code>${app.clientId}</code>`],
        ['Status', app.status],
        ['Region', app.region],
        [
          'Payment callback URLs',
          callbacks
            ? `${callbacks} (${Object.keys(app.callbackUrls).join(', ')})`
            : html`none yet: <a href=${appTab(app.appId, 'settings', { focus: 'f-callbackUrls' })}>set one</a>`,
        ],
        ['Created', time(app.createdAt)],
        ['Updated', time(app.updatedAt)],
      ]}
    />
    <div class="tab-summary">
      ${APP_TABS.filter(([key]) => key !== 'overview').map(
        ([key, label, holds]) =>
          html`<div class="panel">
            <h2><a href=${appTab(app.appId, key)}>${label}</a></h2>
            <p class="muted">${holds}</p>
            ${links[key] ? html`<${PageLinks} links=${links[key]} />` : null}
          </div>`,
      )}
    </div>`;
}

function DeliveryTab({ app }) {
  // Recovered events are delivered again: the test event shown is read again (it may have been one of them).
  const [recovered, setRecovered] = useState(0);
  return html`<${TestEventPanel} appId=${app.appId} round=${recovered} />
    <${RecoverDeadEvents} appId=${app.appId} onRecovered=${() => setRecovered((n) => n + 1)} />
    <div class="panel">
      <h2>Logs</h2>
      <${PageLinks} links=${linksOf(app.appId).delivery} />
    </div>`;
}

function OrdersTab({ app }) {
  return html`<div class="panel">
      <h2>Lists</h2>
      <${PageLinks} links=${linksOf(app.appId).orders} />
    </div>
    <${OrderSettingsPanel} appId=${app.appId} />`;
}

function StoresTab({ app }) {
  return html`<${StoreSettingsPanel} appId=${app.appId} />`;
}

function WebTab({ app }) {
  return html`<${WebPaySettingsPanel} appId=${app.appId} />
    <${PrecheckTextsPanel} appId=${app.appId} />
    <${PaymentProvidersPanel} appId=${app.appId} />`;
}

/** The app's own settings: what the app form edits (opened at once by `?edit`), and the secret's rotation. */
function SettingsTab({ app, reload, query }) {
  const appId = app.appId;
  // The checklist's link to the callback URLs opens the form there.
  const [editing, setEditing] = useState(Boolean(query.focus?.startsWith('f-')));
  const save = useWrite(
    (body) => api('PATCH', `/apps/${encodeURIComponent(appId)}`, { body }),
    () => {
      setEditing(false);
      reload();
    },
  );
  const rotate = useAction(() => api('POST', `/apps/${encodeURIComponent(appId)}/rotate-secret`));
  return html`<${ErrorBox} error=${save.error} />
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
    <//>`;
}

const TAB_BODIES = {
  overview: OverviewTab,
  delivery: DeliveryTab,
  orders: OrdersTab,
  stores: StoresTab,
  web: WebTab,
  settings: SettingsTab,
};

/** The tab bar: a link per tab, the current one marked (aria-current). */
function AppTabBar({ appId, tab }) {
  // On a phone the bar scrolls sideways: the current tab is brought into view.
  const bar = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    const active = /** @type {HTMLElement | null | undefined} */ (bar.current?.querySelector('a.active'));
    if (active && bar.current) bar.current.scrollLeft = active.offsetLeft - bar.current.offsetLeft - 12;
  }, [tab]);
  return html`<nav class="tabs app-tabs" aria-label="App sections" ref=${bar}>
    ${APP_TABS.map(
      ([key, label]) =>
        html`<a
          href=${appTab(appId, key)}
          class=${key === tab ? 'active' : ''}
          data-tab=${key}
          aria-current=${key === tab ? 'page' : undefined}
          >${label}</a
        >`,
    )}
  </nav>`;
}

export function AppDetail({ appId, tab, query }) {
  // Once neither loading nor failed, the app is there.
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}'> & { data: import('page-types').Answer<'/admin/v1/apps/{appId}'> }} */
  const { data: app, error, loading, reload } = useApi('GET', `/apps/${encodeURIComponent(appId)}`, {}, [appId]);
  const Body = TAB_BODIES[tab];
  useFocus(query.focus, Boolean(app && Body));
  if (loading && !app) return html`<${Loading} what="app" />`;
  if (error) return html`<${LoadFailed} title=${`App ${appId}`} error=${error} back="#/apps" backLabel="All apps" />`;
  return html`<section class=${`app-page tab-${tab}`}>
    <h1>${app.name} <span class="muted">app ${app.appId}</span></h1>
    <${AppTabBar} appId=${app.appId} tab=${tab} />
    ${
      Body
        ? html`<${Body} key=${query.focus ?? ''} app=${app} reload=${reload} query=${query} />`
        : html`<div class="error" role="alert">Not found: the app page has no tab ${tab}.</div>`
    }
  </section>`;
}
