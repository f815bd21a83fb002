// pages/webpay.js - panel of the app detail page: the game's texts of its custom pre-order check codes (section 7),
// shown on the web payment page per language (docs/web-payment.md). Built-in codes 101-115 are refused by the API.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { ConfirmButton, ErrorBox, Field, Loading, Table, html, time, useAction, useApi } from '/console/ui.js';

const base = (appId) => `/apps/${encodeURIComponent(appId)}/precheck-messages`;

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
