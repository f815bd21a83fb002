// @ts-check
// pages/providers.js - panel of the app detail page: the app's web payment providers (docs/web-payment.md, "Setting up
// the providers"): for each provider its webhook URL to paste into the provider, whether it is enabled and for which
// payer regions, its public fields, and which secrets are stored. The forms are made from the fields the API lists,
// so a new provider needs no change here. Secrets are write-only: an empty field keeps the stored one, "remove" sends
// null; the form closes after a save so no secret stays in the page. Also the provider messages page.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  BEFORE_PAGING,
  ConfirmButton,
  CopyText,
  Details,
  ErrorBox,
  Field,
  ListPage,
  Loading,
  href,
  html,
  show,
  time,
  useApi,
  usePermission,
} from '/console/ui.js';
import { EditForm, Fields, Saved, SecretField } from '/console/kit/form.js';
import { appListHead } from '/console/kit/app-list.js';
import { MessageLinks, ReadOnlyNotice, RecordActions, useRecord } from '/console/kit/panel.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/payment-providers`;
const REGIONS = ['overseas', 'mainland'];

function ProviderForm({ entry, record }) {
  const s = entry.settings;
  const [form, setForm] = useState(() => ({
    enabled: s?.enabled ?? true,
    regions: s?.regions ?? entry.defaultRegions,
    config: Object.fromEntries(entry.fields.config.map((f) => [f.name, s?.config[f.name] ?? ''])),
    secrets: Object.fromEntries(entry.fields.secrets.map((f) => [f.name, ''])),
    remove: {},
  }));
  const set = (part, name) => (v) => setForm({ ...form, [part]: { ...form[part], [name]: v } });
  const body = () => ({
    enabled: form.enabled,
    regions: form.regions,
    config: Object.fromEntries(Object.entries(form.config).filter(([, v]) => v.trim() !== '')),
    secrets: Object.fromEntries([
      ...Object.entries(form.secrets).filter(([, v]) => v.trim() !== ''),
      ...Object.entries(form.remove)
        .filter(([, on]) => on)
        .map(([k]) => [k, null]),
    ]),
  });
  const configFields = entry.fields.config.map((f) => ({
    key: f.name,
    name: `${entry.provider}-config-${f.name}`,
    label: f.name,
    hint: f.description,
  }));
  return html`<${EditForm}
    className="stacked provider-form provider-${entry.provider}"
    autocomplete="off"
    saveLabel=${`Save ${entry.provider} settings`}
    busy=${record.save.busy}
    onCancel=${record.close}
    onSubmit=${() => record.save.run(body())}
  >
    <${Fields} fields=${configFields} form=${form.config} set=${(name) => set('config', name)} />
    ${entry.fields.secrets.map((f) => {
      const stored = s?.secretsSet.includes(f.name);
      return html`<${SecretField}
        label=${`${f.name} (secret)`}
        name=${`${entry.provider}-secret-${f.name}`}
        type="password"
        hint=${`${f.description} ${stored ? 'Stored: leave empty to keep it.' : 'None stored.'}`}
        value=${form.secrets[f.name]}
        onInput=${set('secrets', f.name)}
        removable=${stored && !f.required}
        removed=${!!form.remove[f.name]}
        onRemove=${set('remove', f.name)}
        removeName=${`${entry.provider}-remove-${f.name}`}
        removeLabel=${`Remove the stored ${f.name}`}
      />`;
    })}
    ${REGIONS.map(
      (r) =>
        html`<${Field}
          label=${`Offer to ${r} players`}
          name=${`${entry.provider}-region-${r}`}
          type="checkbox"
          value=${form.regions.includes(r)}
          onInput=${(on) =>
            setForm({ ...form, regions: on ? [...form.regions, r] : form.regions.filter((x) => x !== r) })}
        />`,
    )}
    <${Field}
      label="Enabled"
      name=${`${entry.provider}-enabled`}
      type="checkbox"
      value=${form.enabled}
      onInput=${(v) => setForm({ ...form, enabled: v })}
    />
  <//>`;
}

function ProviderSection({ appId, entry, canWrite, reload }) {
  const s = entry.settings;
  const record = useRecord({ api, path: `${base(appId)}/${entry.provider}`, stored: s, reload });
  const { save, remove } = record;
  return html`<div class="provider-settings provider-${entry.provider}">
    <h3>${entry.provider} <span class="muted">(${entry.method}, channel ${entry.channel})</span></h3>
    <${ErrorBox} error=${save.error ?? remove.error} />
    <${Saved} action=${save}>${entry.provider} settings saved.<//>
    <${Details}
      rows=${[['Webhook URL', html`<${CopyText} name=${`${entry.provider}-webhook`} value=${entry.webhookUrl} />`]]}
    />
    ${
      record.editing
        ? html`<${ProviderForm} entry=${entry} record=${record} />`
        : s
          ? html`<${Details}
              rows=${[
                [
                  'Enabled',
                  s.enabled ? `yes, for ${s.regions.join(' and ')} players` : 'no: the page does not offer it',
                ],
                ...Object.entries(s.config).map(([k, v]) => [k, v]),
                ['Secrets stored', s.secretsSet.length ? `${s.secretsSet.join(', ')} (never shown)` : 'none'],
                ['Updated', time(s.updatedAt)],
              ]}
            />`
          : html`<p class="muted not-set">Not set: the page does not offer ${entry.method}.</p>`
    }
    ${
      canWrite && !record.editing
        ? html`<${RecordActions}
            record=${record}
            what=${entry.provider}
            deleteQuestion=${`Delete the ${entry.provider} settings (and their stored secrets)?`}
          />`
        : null
    }
  </div>`;
}

export function PaymentProvidersPanel({ appId }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}/payment-providers'>} */
  const { data, error, loading, reload } = useApi('GET', base(appId), {}, [appId]);
  const canWrite = usePermission('apps.write');
  return html`<div class="panel payment-providers">
    <h2>Payment providers</h2>
    <${MessageLinks} appId=${appId} what="Provider" />
    <p class="muted">
      The methods the web payment page offers. Paste each webhook URL into the provider's dashboard
      (docs/web-payment.md).
    </p>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<${Loading} what="payment providers" />` : null}
    <${ReadOnlyNotice} canWrite=${canWrite} what="provider settings" />
    ${data ? data.providers.map((entry) => html`<${ProviderSection} key=${entry.provider} appId=${appId} entry=${entry} canWrite=${canWrite} reload=${reload} />`) : null}
  </div>`;
}

const OUTCOMES = ['', 'applied', 'duplicate', 'recorded', 'ignored', 'refused'];
const OUTCOME_CLASS = { applied: 'ok', refused: 'bad' };

/** One app's provider messages: every webhook and query find, verified or not, with its outcome. Shown as text. */
/** @type {(appId: number | string) => import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/provider-messages', 'messages'>} */
const providerMessages = (appId) => ({
  ...appListHead(appId, 'Provider messages', 'provider-messages', 'web'),
  rows: 'messages',
  rowKey: (m) => m.messageId,
  empty: 'No provider messages match.',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'provider', label: 'Provider' },
    { name: 'outcome', label: 'Outcome', as: 'select', options: OUTCOMES },
    { name: 'trxNo', label: 'trxNo' },
  ],
  columns: [
    { label: 'Received', render: (m) => time(m.receivedAt) },
    { label: 'Provider', key: 'provider' },
    { label: 'Source', key: 'source' },
    { label: 'Type', render: (m) => show(m.type) },
    {
      label: 'Outcome',
      render: (m) => html`<span class=${`outcome ${OUTCOME_CLASS[m.outcome] ?? ''}`}>${m.outcome}</span>`,
    },
    { label: 'Reason', render: (m) => show(m.reason) },
    {
      label: 'trxNo',
      render: (m) => (m.trxNo === null ? show(null) : html`<a href=${href(`/orders/${m.trxNo}`)}>${m.trxNo}</a>`),
    },
    { label: 'Amount', render: (m) => (m.amount === null ? show(null) : `${m.amount} ${m.currency}`) },
    { label: 'Provider transaction', render: (m) => html`<span class="clip">${show(m.providerTrxId)}</span>` },
    { label: 'Excerpt', render: (m) => html`<span class="excerpt">${show(m.excerpt)}</span>` },
  ],
});

export function ProviderMessagesPage({ appId, route }) {
  return html`<${ListPage}
    spec=${providerMessages(appId)}
    query=${route.query}
    at=${`/apps/${appId}/provider-messages`}
  />`;
}
