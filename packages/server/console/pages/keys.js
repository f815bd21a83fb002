// @ts-check
// pages/keys.js - the platform key pairs that sign calls to games (5.3): key id, created, status; rotate, and retire an old key.
import { api } from '/console/api.js';
import { useState } from '/console/vendor/hooks.module.js';
import { ConfirmButton, ErrorBox, ListPage, html, show, time, useAction } from '/console/ui.js';

function RetireButton({ k, onConfirm }) {
  const question =
    k.status === 'signing'
      ? `${k.kid} is the signing key: the service refuses to retire it until another key signs (rotate first). Try anyway?`
      : `Retire ${k.kid}? It is no longer published, so games can no longer verify calls signed with it.`;
  return html`<${ConfirmButton}
    label="Retire"
    question=${question}
    confirmLabel="Yes, retire it"
    onConfirm=${() => onConfirm(k.kid)}
  />`;
}

/** The key pairs, declared for the kit's ListPage; `retire(kid)` is the row's action. */
/** @type {(retire: (kid: string) => unknown) => import('/console/kit/list.js').ListSpec<'/admin/v1/platform-keys', 'keys'>} */
const keyList = (retire) => ({
  path: '/platform-keys',
  rows: 'keys',
  rowKey: (k) => k.kid,
  empty: 'No keys.',
  columns: [
    { label: 'Key id', render: (k) => html`<code>${k.kid}</code>` },
    { label: 'Created', key: 'createdAt', as: 'time' },
    { label: 'Status', render: (k) => html`<span class=${`key-${k.status}`}>${k.status}</span>` },
    { label: 'Retired', render: (k) => (k.retiredAt ? time(k.retiredAt) : show(null)) },
    {
      label: 'Public key',
      render: (k) =>
        html`<details>
          <summary>PEM</summary>
          <pre>${k.publicKeyPem}</pre>
        </details>`,
    },
    {
      label: '',
      render: (k) => (k.status === 'retired' ? null : html`<${RetireButton} k=${k} onConfirm=${retire} />`),
    },
  ],
});

export function KeysPage() {
  // Each change reads the list again (the list page owns its read; `refresh` tells it).
  const [tick, setTick] = useState(0);
  const reload = () => setTick((t) => t + 1);
  // Each action's message replaces the other's, so the page shows only what the last click did.
  const rotate = useAction(async () => {
    retire.reset();
    const r = await api('POST', '/platform-keys/rotate');
    reload();
    return r;
  });
  const retire = useAction(async (kid) => {
    rotate.reset();
    try {
      await api('POST', `/platform-keys/${encodeURIComponent(kid)}/retire`);
      return { kid };
    } finally {
      reload();
    }
  });
  return html`<section>
    <h1>Platform keys</h1>
    <p class="muted">
      Games verify our calls with these public keys; the Key-Id header names the one used. The newest published key
      signs.
    </p>
    <p class="actions">
      <${ConfirmButton}
        label="Rotate keys"
        question="Add a new key pair that signs every call to games from now on? Games must know its public key first; the older keys stay published until retired."
        confirmLabel="Yes, add a signing key"
        onConfirm=${rotate.run}
        disabled=${rotate.busy}
      />
    </p>
    <${ErrorBox} error=${rotate.error} />
    ${rotate.result ? html`<p class="ok" role="status">New signing key <code>${rotate.result.kid}</code> added.</p>` : null}
    <${ErrorBox} error=${retire.error} />
    ${retire.result ? html`<p class="ok" role="status">Key <code>${retire.result.kid}</code> retired.</p>` : null}
    <${ListPage} spec=${keyList(retire.run)} refresh=${tick} />
  </section>`;
}
