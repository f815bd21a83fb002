// @ts-check
// pages/webpay.js - panels of the app detail page for the web payment page (docs/web-payment.md): its settings
// (servers, origins that may frame it, return URLs) and the game's texts of its custom pre-order check codes
// (section 7), shown per language. Built-in codes 101-115 and bad origins are refused by the API.
import { useEffect } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { ConfirmButton, ErrorBox, Loading, Table, html, time, useApi } from '/console/ui.js';
import { Fields, SubmitForm, useForm, useWrite } from '/console/kit/form.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/precheck-messages`;
const lines = (text) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const WEB_PAY_FIELDS = [
  { key: 'servers', name: 'webPayServers', label: 'Servers (serverId=name, one a line)', as: 'textarea' },
  {
    key: 'frameAncestors',
    name: 'webPayFrameAncestors',
    label: 'Frame ancestors (origins, one a line)',
    as: 'textarea',
  },
  { key: 'returnUrls', name: 'webPayReturnUrls', label: 'Return URLs (one a line)', as: 'textarea' },
];

/** Servers (serverId=name per line), frame ancestors and return URLs (one per line); saved together. */
export function WebPaySettingsPanel({ appId }) {
  const path = `/apps/${encodeURIComponent(appId)}/web-pay`;
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}/web-pay'>} */
  const { data, error, loading, reload } = useApi('GET', path, {}, [appId]);
  const [form, set, setForm] = useForm(null);
  useEffect(() => {
    if (data)
      setForm({
        servers: data.servers.map((s) => `${s.serverId}=${s.name}`).join('\n'),
        frameAncestors: data.frameAncestors.join('\n'),
        returnUrls: data.returnUrls.join('\n'),
      });
  }, [data]);
  const save = useWrite(() => {
    const servers = lines(form.servers).map((l) => {
      const at = l.indexOf('=');
      return at > 0 ? { serverId: l.slice(0, at).trim(), name: l.slice(at + 1).trim() } : { serverId: l, name: l };
    });
    return api('PUT', path, {
      body: { servers, frameAncestors: lines(form.frameAncestors), returnUrls: lines(form.returnUrls) },
    });
  }, reload);
  return html`<div class="panel web-pay-settings">
    <h2>Web payment page</h2>
    <p class="muted">
      Servers the official page offers; origins that may frame the page (CSP frame-ancestors, https only; none: no
      framing); return URLs a payment may send the browser back to besides the page itself.
    </p>
    <${ErrorBox} error=${error} />
    <${ErrorBox} error=${save.error} />
    ${loading && !form ? html`<${Loading} what="settings" />` : null}
    ${
      form
        ? html`<${SubmitForm} onSubmit=${save.run}>
            <${Fields} fields=${WEB_PAY_FIELDS} form=${form} set=${set} />
            <p class="actions">
              <button type="submit" disabled=${save.busy}>Save</button>
              ${save.result ? html`<span class="muted saved">Saved.</span>` : null}
            </p>
          <//>`
        : null
    }
  </div>`;
}

const PRECHECK_FIELDS = [
  { key: 'code', name: 'precheckCode', label: 'Code', inputmode: 'numeric', required: true },
  { key: 'lang', name: 'precheckLang', label: 'Language (en, zh-CN, ...)', required: true },
  { key: 'text', name: 'precheckText', label: 'Text', required: true, maxlength: '500' },
];

/** The game's texts of its custom pre-order check codes, per language: listed, deleted one by one, set by the form. */
export function PrecheckTextsPanel({ appId }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/apps/{appId}/precheck-messages'>} */
  const { data, error, loading, reload } = useApi('GET', base(appId), {}, [appId]);
  const [form, set, setForm] = useForm({ code: '', lang: 'en', text: '' });
  const save = useWrite(
    () =>
      api('PUT', `${base(appId)}/${encodeURIComponent(form.code.trim())}/${encodeURIComponent(form.lang.trim())}`, {
        body: { text: form.text },
      }),
    () => {
      setForm((f) => ({ ...f, text: '' }));
      reload();
    },
  );
  const remove = useWrite((row) => api('DELETE', `${base(appId)}/${row.code}/${encodeURIComponent(row.lang)}`), reload);
  return html`<div class="panel precheck-texts">
    <h2>Pre-order check texts (custom codes)</h2>
    <p class="muted">
      What the web payment page shows when the game's pre-order check (4.10) blocks with one of its own codes; built-in
      codes 101-115 are translated by the page.
    </p>
    <${ErrorBox} error=${error} />
    <${ErrorBox} error=${save.error ?? remove.error} />
    ${loading && !data ? html`<${Loading} what="texts" />` : null}
    ${
      data
        ? html`<${Table}
            empty="No texts: the page shows the game's msg."
            rowKey=${(r) => `${r.code}/${r.lang}`}
            columns=${[
              { label: 'Code', key: 'code' },
              { label: 'Language', key: 'lang' },
              { label: 'Text', key: 'text' },
              { label: 'Updated', render: (r) => time(r.updatedAt) },
              {
                label: '',
                render: (r) =>
                  html`<${ConfirmButton}
                    label="Delete"
                    question=${`Delete the ${r.lang} text of ${r.code}?`}
                    onConfirm=${() => remove.run(r)}
                  />`,
              },
            ]}
            rows=${data.items}
          />`
        : null
    }
    <${SubmitForm} onSubmit=${save.run}>
      <${Fields} fields=${PRECHECK_FIELDS} form=${form} set=${set} />
      <p class="actions"><button type="submit" disabled=${save.busy}>Save text</button></p>
    <//>
  </div>`;
}
