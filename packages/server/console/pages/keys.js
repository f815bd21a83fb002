// pages/keys.js - the platform key pairs that sign calls to games (5.3): key id, created, status.
import { ErrorBox, Loading, Table, html, show, time, useApi } from '/console/ui.js';

export function KeysPage() {
  const { data, error, loading } = useApi('GET', '/platform-keys', {}, []);
  return html`<section>
    <h1>Platform keys</h1>
    <p class="muted">Games verify our calls with these public keys; the Key-Id header names the one used.</p>
    <${ErrorBox} error=${error} />
    ${loading ? html`<${Loading} />` : data ? html`<${Table} rowKey=${(k) => k.kid} rows=${data.keys} empty="No keys." columns=${[
      { label: 'Key id', render: (k) => html`<code>${k.kid}</code>` },
      { label: 'Created', render: (k) => time(k.createdAt) },
      { label: 'Status', key: 'status' },
      { label: 'Retired', render: (k) => (k.retiredAt ? time(k.retiredAt) : show(null)) },
      { label: 'Public key', render: (k) => html`<details><summary>PEM</summary><pre>${k.publicKeyPem}</pre></details>` },
    ]} />` : null}
  </section>`;
}
