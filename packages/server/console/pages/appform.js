// @ts-check
// pages/appform.js - the app form (create and edit): name, region, payment callback URLs as "serverId = URL" lines,
// the game's other URLs, allowed IPs and unionId; and the fields shown on the app's pages.
import { html } from '/console/ui.js';
import { Fields, SubmitForm, useForm } from '/console/kit/form.js';

export const URL_FIELDS = [
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

export function AppForm({ initial, editing, submitLabel, onSubmit, busy }) {
  const [form, set] = useForm(() => formFrom(initial));
  return html`<${SubmitForm} onSubmit=${() => onSubmit(bodyFrom(form, editing))}>
    <${Fields} fields=${editing ? APP_FIELDS : NEW_APP_FIELDS} form=${form} set=${set} />
    <button type="submit" disabled=${busy}>${submitLabel}</button>
  <//>`;
}
