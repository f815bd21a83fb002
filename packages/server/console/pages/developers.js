// @ts-check
// pages/developers.js - studio developers (issue 34, docs/portal.md): the accounts of the studio portal with their
// apps, the invitations not taken up yet (never signed in), inviting one (password, TOTP QR code and recovery codes
// shown once), and changing its apps, disabling it, resetting it. All through the admin API, so in the audit trail.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  AccountCreated,
  AccountPage,
  ActionForm,
  EmailField,
  PersonNameField,
  PeopleTabs,
  accountRecord,
  accountStatus,
  useAccountActions,
} from '/console/pages/peoplecommon.js';
import {
  ErrorBox,
  Field,
  Loading,
  Table,
  href,
  html,
  useAction,
  useApi,
  usePermission,
  useRecord,
} from '/console/ui.js';

const devPath = (name) => `/studio-developers/${encodeURIComponent(name)}`;

/** "3, 7" -> [3, 7]; what is not a number goes to the API as typed, which says what is wrong with it. */
const parseAppIds = (text) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => (/^\d{1,15}$/.test(s) ? Number(s) : s));

const appLinks = (ids) =>
  ids.length
    ? ids.map((id, i) => html`${i ? ', ' : ''}<a href=${href(`/apps/${id}`)}>${String(id)}</a>`)
    : html`<span class="muted">none</span>`;

function DeveloperTable({ rows, empty }) {
  return html`<${Table}
    rowKey=${(d) => d.name}
    empty=${empty}
    rows=${rows}
    columns=${[
      { label: 'Name', render: (d) => html`<a href=${href(`/people/developers/${d.name}`)}>${d.name}</a>` },
      { label: 'Apps', render: (d) => appLinks(d.appIds) },
      { label: 'Status', render: accountStatus },
      { label: 'Last sign-in', key: 'lastLoginAt', as: 'time' },
      { label: 'Invited', key: 'createdAt', as: 'time' },
    ]}
  />`;
}

function DeveloperList() {
  /** @type {import('page-types').ReadOf<'/admin/v1/studio-developers'>} */
  const { data, error, loading } = useApi('GET', '/studio-developers', {}, []);
  const canWrite = usePermission('operators.write');
  // An invitation is pending until the developer first signs in to the portal.
  const pending = data ? data.developers.filter((d) => !d.lastLoginAt && !d.disabled) : [];
  return html`<section class="developers">
    <h1>Studio developers</h1>
    <${PeopleTabs} active="developers" />
    <p class="muted">Accounts of the studio portal (/portal): each sees only its apps.</p>
    ${canWrite ? html`<p><a class="button invite-developer" href="#/people/developers/new">Invite a developer</a></p>` : null}
    <${ErrorBox} error=${error} />
    ${loading ? html`<${Loading} what="studio developers" />` : null}
    ${
      data
        ? html`<h2>Pending invitations</h2>
            <div class="pending-invitations">
              <${DeveloperTable} rows=${pending} empty="No pending invitations." />
            </div>
            <h2>All studio developers</h2>
            <div class="all-developers">
              <${DeveloperTable} rows=${data.developers} empty="No studio developers yet." />
            </div>`
        : null
    }
  </section>`;
}

function DeveloperInvite() {
  const [name, setName] = useState('');
  const [appIds, setAppIds] = useState('');
  const [email, setEmail] = useState('');
  /** @type {import('page-types').ReadOf<'/admin/v1/apps'>} */
  const apps = useApi('GET', '/apps', {}, []);
  const invite = useAction(() =>
    api('POST', '/studio-developers', {
      body: { name: name.trim(), appIds: parseAppIds(appIds), ...(email.trim() ? { email: email.trim() } : {}) },
    }),
  );
  const created = invite.result;
  const appsHint = apps.data
    ? `Comma-separated. Apps: ${apps.data.apps.map((a) => `${a.appId} (${a.name})`).join(', ') || 'none yet'}`
    : 'Comma-separated.';
  if (created) return html`<${AccountCreated} kind="developer" name=${created.developer.name} created=${created} />`;
  return html`<section>
    <h1>Invite a studio developer</h1>
    <${PeopleTabs} active="developers" />
    <${ErrorBox} error=${invite.error} />
    <${ActionForm} className="stacked developer-invite" onSubmit=${invite.run}>
      <${PersonNameField} name="developerName" value=${name} onInput=${setName} />
      <${Field} label="App ids" name="developerApps" value=${appIds} onInput=${setAppIds} required hint=${appsHint} />
      <${EmailField} name="developerEmail" value=${email} onInput=${setEmail} />
      <button type="submit" disabled=${invite.busy}>Invite</button>
    <//>
  </section>`;
}

function DeveloperDetail({ name }) {
  /** @type {import('page-types').RecordOf<'/admin/v1/studio-developers/{name}'>} */
  const { data: dev, reload, placeholder } = useRecord(devPath(name), {}, [name], accountRecord('developer', name));
  const canWrite = usePermission('operators.write');
  const [appIds, setAppIds] = useState(/** @type {string | undefined} */ (undefined));
  const [refundIds, setRefundIds] = useState(/** @type {string | undefined} */ (undefined));
  const actions = useAccountActions(devPath(name), reload);
  const saveApps = useAction(() =>
    actions.after(
      api('PATCH', devPath(name), {
        body: {
          ...(appIds !== undefined ? { appIds: parseAppIds(appIds) } : {}),
          ...(refundIds !== undefined ? { refundAppIds: refundIds.trim() ? parseAppIds(refundIds) : [] } : {}),
        },
      }),
    ),
  );
  if (placeholder) return placeholder;
  const save = {
    row: ['Apps', html`${appLinks(dev.appIds)} (refunds: ${dev.refundAppIds.join(', ') || 'none'})`],
    field: html`<${Field}
        label="App ids"
        name="developerAppIds"
        value=${appIds ?? dev.appIds.join(', ')}
        onInput=${setAppIds}
      />
      <${Field}
        label="May refund web orders of (app ids)"
        name="developerRefundAppIds"
        value=${refundIds ?? dev.refundAppIds.join(', ')}
        onInput=${setRefundIds}
        hint="Among its apps; empty: none (docs/portal.md, Refunds)."
      />`,
    action: saveApps,
    disabled: saveApps.busy || (appIds === undefined && refundIds === undefined),
    onSave: saveApps.run,
  };
  return html`<${AccountPage} kind="developer" account=${dev} actions=${actions} canWrite=${canWrite} save=${save} />`;
}

export function DevelopersPage({ name }) {
  if (name === 'new') return html`<${DeveloperInvite} />`;
  if (name) return html`<${DeveloperDetail} name=${name} />`;
  return html`<${DeveloperList} />`;
}
