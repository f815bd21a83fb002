// @ts-check
// pages/stores.js - panel of the app detail page: the app's App Store and Google Play settings (docs/stores.md), the
// notification URLs to paste into App Store Connect and the Play Console, and forms to set, enable, disable and delete
// them. Secrets (.p8 key, service account JSON) are write-only: the API answers only whether one is stored, an empty
// secret field keeps the stored one, "remove" sends null. The forms close after a save so no secret stays in the page.
import { api } from '/console/api.js';
import {
  ConfirmButton,
  CopyText,
  Details,
  ErrorBox,
  Field,
  Loading,
  html,
  time,
  useApi,
  usePermission,
} from '/console/ui.js';
import { EditForm, Fields, Saved, SecretField, useForm, useWrite } from '/console/kit/form.js';
import { MessageLinks, ReadOnlyNotice, RecordActions, useRecord } from '/console/kit/panel.js';
import { APPLE, GOOGLE } from '/console/pages/storekinds.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/store-settings`;

/** The form of one store: its plain fields, the secret (write-only) with "remove", and enabled. */
function StoreForm({ kind, record }) {
  const settings = record.stored;
  const [form, set] = useForm(() => kind.form(settings));
  const stored = settings && kind.secretSet(settings);
  return html`<${EditForm}
    className="stacked store-form store-${kind.store}"
    autocomplete="off"
    saveLabel=${`Save ${kind.title} settings`}
    busy=${record.save.busy}
    onCancel=${record.close}
    onSubmit=${() => record.save.run(kind.body(form))}
  >
    <${Fields} fields=${kind.fields} form=${form} set=${set} />
    <${SecretField}
      label=${kind.secretLabel}
      name=${`${kind.store}Secret`}
      as="textarea"
      rows="5"
      spellcheck="false"
      hint=${stored ? 'A key is stored. Leave empty to keep it; paste a new one to replace it.' : 'None stored.'}
      value=${form.secret}
      onInput=${set('secret')}
      removable=${stored}
      removed=${form.removeSecret}
      onRemove=${set('removeSecret')}
      removeName=${`${kind.store}RemoveSecret`}
      removeLabel="Remove the stored key"
    />
    <${Field}
      label="Enabled"
      name=${`${kind.store}Enabled`}
      type="checkbox"
      value=${form.enabled}
      onInput=${set('enabled')}
    />
  <//>`;
}

/** One store's settings: shown as the API answers them, with edit, enable/disable and delete for who may write. */
function StoreSection({ appId, kind, settings, canWrite, reload }) {
  const path = `${base(appId)}/${kind.store}`;
  const record = useRecord({ api, path, stored: settings, reload });
  const { save, remove } = record;
  // Enable/disable sends the settings as shown, secrets left out (kept).
  const toggle = useWrite(
    () => api('PUT', path, { body: { ...kind.body(kind.form(settings)), enabled: !settings.enabled } }),
    reload,
  );
  return html`<div class="store-settings store-${kind.store}">
    <h3>${kind.title}</h3>
    <${ErrorBox} error=${save.error ?? toggle.error ?? remove.error} />
    <${Saved} action=${save}>${kind.title} settings saved.<//>
    ${
      record.editing
        ? html`<${StoreForm} kind=${kind} record=${record} />`
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
              ? html`<${RecordActions}
                  record=${record}
                  what=${kind.title}
                  deleteQuestion=${`Delete the ${kind.title} settings (and their stored key)?`}
                >
                  ${settings ? html`<${ConfirmButton} label=${settings.enabled ? 'Disable' : 'Enable'} question=${`${settings.enabled ? 'Disable' : 'Enable'} the ${kind.title} settings of this app?`} onConfirm=${toggle.run} danger=${settings.enabled} disabled=${toggle.busy} />` : null}
                <//>`
              : null
          }`
    }
  </div>`;
}

export function StoreSettingsPanel({ appId }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}/store-settings'>} */
  const { data, error, loading, reload } = useApi('GET', base(appId), {}, [appId]);
  const canWrite = usePermission('apps.write');
  return html`<div class="panel app-stores">
    <h2>App stores</h2>
    <${MessageLinks} appId=${appId} what="Store" />
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
            <${ReadOnlyNotice} canWrite=${canWrite} what="store settings" />
            ${[APPLE, GOOGLE].map(
              (kind) =>
                html`<${StoreSection}
                  key=${kind.store}
                  appId=${appId}
                  kind=${kind}
                  settings=${data[kind.store]}
                  canWrite=${canWrite}
                  reload=${reload}
                />`,
            )}`
        : null
    }
  </div>`;
}
