// @ts-check
// pages/invitations.js - the invitation and reset links of operators and studio developers (issue 42): their states
// (pending, accepted, expired, revoked), never a link already made; resend (a new link, the old one dies) and revoke.
import { api } from '/console/api.js';
import { InvitationIssued, PeopleTabs } from '/console/pages/peoplecommon.js';
import { ConfirmButton, ErrorBox, Loading, Table, html, time, useAction, useApi, usePermission } from '/console/ui.js';

const REALMS = [
  ['operators', '/operator-invitations', 'Operator'],
  ['developers', '/studio-developer-invitations', 'Studio developer'],
];

function stateText(i) {
  const cls = i.state === 'accepted' ? 'ok' : i.state === 'pending' ? '' : 'bad';
  return html`<span class=${`invitation-state ${cls}`}>${i.state}</span>`;
}

/** One realm's invitations with their actions. */
function InvitationList({ path, label, canWrite }) {
  const { data, error, loading, reload } = useApi('GET', path, {}, []);
  const resend = useAction((id) => api('POST', `${path}/${id}/resend`), reload);
  const revoke = useAction((id) => api('POST', `${path}/${id}/revoke`), reload);
  const actions = (i) =>
    canWrite
      ? html`${
          i.state !== 'accepted'
            ? html`<button type="button" class="resend" onClick=${() => resend.run(i.invitationId)}>Resend</button> `
            : null
        }${
          i.state === 'pending'
            ? html`<${ConfirmButton}
                label="Revoke"
                question=${`Revoke this link of ${i.name}? It stops working at once.`}
                confirmLabel="Yes, revoke it"
                onConfirm=${() => revoke.run(i.invitationId)}
              />`
            : null
        }`
      : null;
  return html`<div class=${`invitation-list ${path.slice(1)}`}>
    <h2>${label} invitations</h2>
    ${[error, resend.error, revoke.error].map((e) => html`<${ErrorBox} error=${e} />`)}
    ${resend.result ? html`<${InvitationIssued} issued=${resend.result} />` : null}
    ${loading ? html`<${Loading} what="invitations" />` : null}
    ${
      data
        ? html`<${Table}
            rowKey=${(i) => i.invitationId}
            rows=${data.invitations}
            empty="No invitations yet."
            columns=${[
              { label: 'Name', key: 'name' },
              { label: 'Kind', render: (i) => (i.kind === 'reset' ? 'reset' : 'new account') },
              { label: 'State', render: stateText },
              { label: 'E-mail', render: (i) => i.email ?? '—' },
              { label: 'By', key: 'createdBy' },
              { label: 'Made', render: (i) => time(i.createdAt) },
              { label: 'Expires', render: (i) => time(i.expiresAt) },
              { label: '', render: actions },
            ]}
          />`
        : null
    }
  </div>`;
}

export function InvitationsPage() {
  const canWrite = usePermission('operators.write');
  return html`<section class="invitations">
    <h1>Invitations</h1>
    <${PeopleTabs} active="invitations" />
    <p class="muted">
      Each link is good once, until it expires: with it the person sets their own password and second factor. You see
      its state only; resend makes a new link (the old one dies).
    </p>
    ${REALMS.map(([key, path, label]) => html`<${InvitationList} key=${key} path=${path} label=${label} canWrite=${canWrite} />`)}
  </section>`;
}
