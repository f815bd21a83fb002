// pages/stores.js - panel of the app detail page: the app's App Store and Google Play settings (docs/stores.md), the
// notification URLs to paste into App Store Connect and the Play Console, and forms to set, enable, disable and delete
// them. Secrets (.p8 key, service account JSON) are write-only: the API answers only whether one is stored, an empty
// secret field keeps the stored one, "remove" sends null. The forms close after a save so no secret stays in the page.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  ConfirmButton,
  CopyText,
  Details,
  ErrorBox,
  Field,
  Loading,
  href,
  html,
  time,
  useAction,
  useApi,
  usePermission,
} from '/console/ui.js';
import { APPLE, GOOGLE } from '/console/pages/storekinds.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/store-settings`;

/** The form of one store: its plain fields, the secret (write-only) with "remove", and enabled. */
function StoreForm({ kind, settings, busy, onSubmit, onCancel }) {
  const [form, setForm] = useState(() => kind.form(settings));
  const set = (k) => (v) => setForm({ ...form, [k]: v });
  const stored = settings && kind.secretSet(settings);
  return html`<form
    class="stacked store-form store-${kind.store}"
    autocomplete="off"
    onSubmit=${(e) => {
      e.preventDefault();
      onSubmit(kind.body(form));
    }}
  >
    ${kind.fields(form, set)}
    <${Field}
      label=${kind.secretLabel}
      name=${`${kind.store}Secret`}
      as="textarea"
      rows="5"
      value=${form.secret}
      onInput=${set('secret')}
      disabled=${form.removeSecret}
      spellcheck="false"
      hint=${stored ? 'A key is stored. Leave empty to keep it; paste a new one to replace it.' : 'None stored.'}
    />
    ${stored ? html`<${Field} label="Remove the stored key" name=${`${kind.store}RemoveSecret`} type="checkbox" value=${form.removeSecret} onInput=${set('removeSecret')} />` : null}
    <${Field}
      label="Enabled"
      name=${`${kind.store}Enabled`}
      type="checkbox"
      value=${form.enabled}
      onInput=${set('enabled')}
    />
    <p class="actions">
      <button type="submit" disabled=${busy}>Save ${kind.title} settings</button>
      <button type="button" onClick=${onCancel}>Cancel</button>
    </p>
  </form>`;
}

/** One store's settings: shown as the API answers them, with edit, enable/disable and delete for who may write. */
function StoreSection({ appId, kind, settings, canWrite, reload }) {
  const [editing, setEditing] = useState(false);
  const path = `${base(appId)}/${kind.store}`;
  const save = useAction(async (body) => {
    const r = await api('PUT', path, { body });
    setEditing(false);
    reload();
    return r;
  });
  // Enable/disable sends the settings as shown, secrets left out (kept).
  const toggle = useAction(async () => {
    const r = await api('PUT', path, { body: { ...kind.body(kind.form(settings)), enabled: !settings.enabled } });
    reload();
    return r;
  });
  const remove = useAction(async () => {
    await api('DELETE', path);
    reload();
    return true;
  });
  const edit = () => {
    save.reset();
    setEditing(true);
  };
  return html`<div class="store-settings store-${kind.store}">
    <h3>${kind.title}</h3>
    <${ErrorBox} error=${save.error ?? toggle.error ?? remove.error} />
    ${save.result ? html`<p class="ok" role="status">${kind.title} settings saved.</p>` : null}
    ${
      editing
        ? html`<${StoreForm}
            kind=${kind}
            settings=${settings}
            busy=${save.busy}
            onSubmit=${save.run}
            onCancel=${() => setEditing(false)}
          />`
        : html`${
            settings
              ? html`<${Details}
                  rows=${[
                    [
                      'Enabled',
                      settings.enabled
                        ? 'yes: the store pays and refunds this channel'
                        : 'no: the channel falls back to the sandbox, if on',
                    ],
                    ...kind.rows(settings),
                    ['Updated', time(settings.updatedAt)],
                  ]}
                />`
              : html`<p class="muted not-set">Not set: this channel uses the sandbox (when on) or is refused.</p>`
          }
          ${
            canWrite
              ? html`<p class="actions">
                  <button type="button" onClick=${edit}>${settings ? 'Edit' : 'Set up'} ${kind.title}</button>
                  ${settings ? html`<${ConfirmButton} label=${settings.enabled ? 'Disable' : 'Enable'} question=${`${settings.enabled ? 'Disable' : 'Enable'} the ${kind.title} settings of this app?`} onConfirm=${toggle.run} danger=${settings.enabled} disabled=${toggle.busy} />` : null}
                  ${settings ? html`<${ConfirmButton} label="Delete" question=${`Delete the ${kind.title} settings (and their stored key)?`} confirmLabel="Yes, delete them" onConfirm=${remove.run} disabled=${remove.busy} />` : null}
                </p>`
              : null
          }`
    }
  </div>`;
}

export function StoreSettingsPanel({ appId }) {
  const { data, error, loading, reload } = useApi('GET', base(appId), {}, [appId]);
  const canWrite = usePermission('apps.write');
  return html`<div class="panel app-stores">
    <h2>App stores</h2>
    <p class="links">
      <a href=${href(`/apps/${appId}/store-messages`)}>Store messages</a>${' · '}
      <a href=${href(`/apps/${appId}/store-messages`, { outcome: 'refused' })}>Refused store messages</a>
    </p>
    <${ErrorBox} error=${error} />
    ${loading && !data ? html`<${Loading} what="store settings" />` : null}
    ${
      data
        ? html`<h3>Notification URLs</h3>
            <p class="muted">
              Paste them into App Store Connect (Server Notifications V2) and the Play Console's Pub/Sub push
              subscription.
            </p>
            <${Details}
              rows=${[
                ['App Store', html`<${CopyText} name="apple-url" value=${data.notificationUrls.apple} />`],
                ['Google Play', html`<${CopyText} name="google-url" value=${data.notificationUrls.google} />`],
              ]}
            />
            ${canWrite === false ? html`<p class="notice read-only" role="status">Read-only: your role may not change store settings (apps.write).</p>` : null}
            <${StoreSection}
              appId=${appId}
              kind=${APPLE}
              settings=${data.apple}
              canWrite=${canWrite}
              reload=${reload}
            />
            <${StoreSection}
              appId=${appId}
              kind=${GOOGLE}
              settings=${data.google}
              canWrite=${canWrite}
              reload=${reload}
            />`
        : null
    }
  </div>`;
}
