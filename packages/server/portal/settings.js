// @ts-check
// settings.js - an app's callback and game URLs (checked by the service as in the admin API) and its md5 secret
// rotation (the new secret shown once; the previous one accepted for the grace period).
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/portal/api.js';
import { ErrorBox, html, useAction, time } from '/portal/ui.js';
import { Fields, SubmitForm, useForm, useWrite } from '/console/kit/form.js';

const URL_FIELDS = [
  ['roleQueryUrl', 'Role query URL (4.8)'],
  ['roleListUrl', 'Role list URL (4.9)'],
  ['preOrderCheckUrl', 'Pre-order check URL (4.10)'],
  ['cancellationCallbackUrl', 'Account cancellation callback URL (6)'],
  ['partnerUrl', 'Partner URL for consumption notices (4.6)'],
];

const SETTINGS_FIELDS = [
  {
    key: 'callbackUrls',
    label: 'Payment callback URLs (4.7)',
    as: 'textarea',
    rows: '4',
    hint: 'One a line: the default URL, or serverId = URL.',
  },
  ...URL_FIELDS.map(([key, label]) => ({ key, label })),
];

const mapText = (m) =>
  Object.entries(m)
    .map(([k, v]) => (k === 'default' ? v : `${k} = ${v}`))
    .join('\n');
function parseMap(text) {
  const out = {};
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const eq = line.indexOf(' = ');
    if (eq > 0) out[line.slice(0, eq).trim()] = line.slice(eq + 3).trim();
    else out.default = line;
  }
  return out;
}

export function Settings({ app, onSaved }) {
  const [form, set] = useForm(() => ({
    callbackUrls: mapText(app.callbackUrls),
    ...Object.fromEntries(URL_FIELDS.map(([k]) => [k, app[k] ?? ''])),
  }));
  const save = useWrite(() => {
    const body = { callbackUrls: parseMap(form.callbackUrls) };
    for (const [k] of URL_FIELDS) body[k] = form[k].trim() === '' ? null : form[k].trim();
    return api('PATCH', `/apps/${app.appId}`, { body });
  }, onSaved);
  const [asking, setAsking] = useState(false);
  const rotate = useAction(() => api('POST', `/apps/${app.appId}/rotate-secret`));
  return html`<div>
    <${SubmitForm} className="stacked settings" onSubmit=${save.run}>
      <${Fields} fields=${SETTINGS_FIELDS} form=${form} set=${set} />
      <button type="submit" disabled=${save.busy}>Save URLs</button>
      ${save.result ? html`<span class="ok"> Saved.</span>` : null}
      <${ErrorBox} error=${save.error} />
    <//>
    <div class="panel">
      <h2>md5 secret</h2>
      <p class="muted">
        Last rotated
        ${time(app.secretRotatedAt)}.${app.previousSecretExpiresAt ? html` The previous secret is accepted until ${time(app.previousSecretExpiresAt)}.` : ''}
        A new secret is shown once; the previous one keeps working for the grace period, so update your game meanwhile.
      </p>
      ${
        asking
          ? html`<span class="confirm"
              >Rotate the md5 secret of ${app.name}?
              <button
                type="button"
                class="danger confirm-rotate"
                onClick=${async () => {
                  setAsking(false);
                  await rotate.run();
                  onSaved();
                }}
              >
                Rotate
              </button>
              <button type="button" onClick=${() => setAsking(false)}>Cancel</button></span
            >`
          : html`<button type="button" class="danger rotate" disabled=${rotate.busy} onClick=${() => setAsking(true)}>
              Rotate secret
            </button>`
      }
      ${
        rotate.result
          ? html`<div class="secret">
              New md5 secret, shown only this once:<code class="secret-value">${rotate.result.secret}</code>
            </div>`
          : null
      }
      <${ErrorBox} error=${rotate.error} />
    </div>
  </div>`;
}
