// pages/webpay.js - panels of the app detail page for the web payment page (docs/web-payment.md): its settings
// (servers, origins that may frame it, return URLs) and the game's texts of its custom pre-order check codes
// (section 7), shown per language. Built-in codes 101-115 and bad origins are refused by the API.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { ConfirmButton, ErrorBox, Field, Loading, Table, html, time, useAction, useApi } from '/console/ui.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/precheck-messages`;
const lines = (text) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Servers (serverId=name per line), frame ancestors and return URLs (one per line); saved together. */
export function WebPaySettingsPanel({ appId }) {
  const path = `/apps/${encodeURIComponent(appId)}/web-pay`;
  const { data, error, loading, reload } = useApi('GET', path, {}, [appId]);
  const [form, setForm] = useState(null);
  useEffect(() => {
    if (data)
      setForm({
        servers: data.servers.map((s) => `${s.serverId}=${s.name}`).join('\n'),
        frameAncestors: data.frameAncestors.join('\n'),
        returnUrls: data.returnUrls.join('\n'),
      });
  }, [data]);
  const save = useAction(async () => {
    const servers = lines(form.servers).map((l) => {
      const at = l.indexOf('=');
      return at > 0 ? { serverId: l.slice(0, at).trim(), name: l.slice(at + 1).trim() } : { serverId: l, name: l };
    });
    const r = await api('PUT', path, {
      body: { servers, frameAncestors: lines(form.frameAncestors), returnUrls: lines(form.returnUrls) },
    });
    reload();
    return r;
  });
  const set = (key) => (value) => setForm({ ...form, [key]: value });
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
        ? html`<form
            class="stacked"
            onSubmit=${(e) => {
              e.preventDefault();
              save.run();
            }}
          >
            <${Field}
              label="Servers (serverId=name, one a line)"
              name="webPayServers"
              as="textarea"
              value=${form.servers}
              onInput=${set('servers')}
            />
            <${Field}
              label="Frame ancestors (origins, one a line)"
              name="webPayFrameAncestors"
              as="textarea"
              value=${form.frameAncestors}
              onInput=${set('frameAncestors')}
            />
            <${Field}
              label="Return URLs (one a line)"
              name="webPayReturnUrls"
              as="textarea"
              value=${form.returnUrls}
              onInput=${set('returnUrls')}
            />
            <p class="actions">
              <button type="submit" disabled=${save.busy}>Save</button>
              ${save.result ? html`<span class="muted saved">Saved.</span>` : null}
            </p>
          </form>`
        : null
    }
  </div>`;
}

export function PrecheckTextsPanel({ appId }) {
  const { data, error, loading, reload } = useApi('GET', base(appId), {}, [appId]);
  const [code, setCode] = useState('');
  const [lang, setLang] = useState('en');
  const [text, setText] = useState('');
  const save = useAction(async () => {
    const r = await api('PUT', `${base(appId)}/${encodeURIComponent(code.trim())}/${encodeURIComponent(lang.trim())}`, {
      body: { text },
    });
    setText('');
    reload();
    return r;
  });
  const remove = useAction(async (row) => {
    await api('DELETE', `${base(appId)}/${row.code}/${encodeURIComponent(row.lang)}`);
    reload();
    return true;
  });
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
    <form
      class="stacked"
      onSubmit=${(e) => {
        e.preventDefault();
        save.run();
      }}
    >
      <${Field} label="Code" name="precheckCode" value=${code} onInput=${setCode} inputmode="numeric" required />
      <${Field} label="Language (en, zh-CN, ...)" name="precheckLang" value=${lang} onInput=${setLang} required />
      <${Field} label="Text" name="precheckText" value=${text} onInput=${setText} required maxlength="500" />
      <p class="actions"><button type="submit" disabled=${save.busy}>Save text</button></p>
    </form>
  </div>`;
}
