// @ts-check
// pages/tokens.js - operator API tokens (issue 34): an operator's tokens with their expiry and last use, minting one
// (its value shown once) and revoking one; and every operator's tokens on one page. Never a token's value on a read.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import {
  ActionStatus,
  ConfirmButton,
  ErrorBox,
  Loading,
  SecretOnce,
  Table,
  boundFields,
  href,
  html,
  time,
  useAction,
  useApi,
  usePermission,
} from '/console/ui.js';
import { ActionForm, PeopleTabs } from '/console/pages/peoplecommon.js';

/** The roles an owner may hand a token (the API's mayGrant: its own role, or support). */
const grantable = (ownerRole) => (ownerRole === 'support' ? ['support'] : [ownerRole, 'support']);

function tokenState(t) {
  if (t.revokedAt) return html`<span class="muted">revoked ${time(t.revokedAt)}</span>`;
  if (t.expiresAt && Date.parse(t.expiresAt) <= Date.now()) return html`<span class="muted">expired</span>`;
  return html`<span class="ok">active</span>`;
}

function TokenTable({ tokens, canWrite, onRevoke, showOwner }) {
  return html`<${Table}
    rowKey=${(t) => t.tokenId}
    empty="No API tokens."
    rows=${tokens}
    columns=${[
      { label: 'Id', key: 'tokenId' },
      ...(showOwner
        ? [
            {
              label: 'Operator',
              render: (t) => html`<a href=${href(`/people/operators/${t.operator}`)}>${t.operator}</a>`,
            },
          ]
        : []),
      { label: 'Name', key: 'name' },
      { label: 'Role', key: 'role' },
      { label: 'State', render: tokenState },
      { label: 'Expires', key: 'expiresAt', as: 'time' },
      { label: 'Last used', key: 'lastUsedAt', as: 'time' },
      { label: 'Created', key: 'createdAt', as: 'time' },
      ...(canWrite
        ? [
            {
              label: '',
              render: (t) =>
                t.revokedAt
                  ? null
                  : html`<${ConfirmButton}
                      label="Revoke"
                      question=${`Revoke token ${t.name}? Scripts using it stop working at once.`}
                      onConfirm=${() => onRevoke(t)}
                    />`,
            },
          ]
        : []),
    ]}
  />`;
}

/** Revoking a token (run with the token), then `after()`; and what it came to. */
const useRevoke = (after) => useAction((t) => api('DELETE', `/operator-tokens/${t.tokenId}`), after);
const RevokeStatus = ({ revoke }) =>
  html`<${ActionStatus} action=${revoke} done=${(r) => `Token ${r.name} revoked.`} />`;

/** One operator's tokens, and (with operators.write) minting and revoking. */
export function TokensPanel({ operator, ownerRole, canWrite }) {
  /** @type {import('page-types').ReadOf<'/admin/v1/operator-tokens'>} */
  const { data, error, loading, reload } = useApi('GET', '/operator-tokens', { query: { operator } }, [operator]);
  const [form, setForm] = useState({ tokenName: '', tokenRole: ownerRole, tokenDays: '90' });
  const field = boundFields(form, setForm);
  const mint = useAction(async () => {
    const { tokenName, tokenRole, tokenDays } = form;
    const body = { operator, name: tokenName.trim(), role: tokenRole, expiresInDays: Number(tokenDays) };
    const r = await api('POST', '/operator-tokens', { body });
    setForm((f) => ({ ...f, tokenName: '' }));
    return r;
  }, reload);
  const revoke = useRevoke(reload);
  return html`<div class="panel tokens-panel">
    <h2>API tokens</h2>
    <${ErrorBox} error=${error} />
    <${ErrorBox} error=${mint.error} />
    ${mint.result ? html`<${SecretOnce} label=${`API token ${mint.result.info.name}`} value=${mint.result.token} />` : null}
    <${RevokeStatus} revoke=${revoke} />
    ${loading && !data ? html`<${Loading} what="tokens" />` : null}
    ${data ? html`<${TokenTable} tokens=${data.tokens} canWrite=${canWrite} onRevoke=${revoke.run} />` : null}
    ${
      canWrite
        ? html`<${ActionForm} className="inline-fields mint-token" onSubmit=${mint.run}>
            ${field('tokenName', { label: 'Token name', required: true, maxlength: '100' })}
            ${field('tokenRole', { label: 'Role', as: 'select', options: grantable(ownerRole) })}
            ${field('tokenDays', { label: 'Expires in (days)', type: 'number', min: '1', max: '366', required: true })}
            <div class="field"><label> </label><button type="submit" disabled=${mint.busy}>Mint token</button></div>
          <//>`
        : null
    }
  </div>`;
}

/** Every operator's tokens, newest first (the API lists one operator's at a time: one read per operator). */
async function allTokens() {
  const { operators } = await api('GET', '/operators');
  const lists = await Promise.all(
    operators.map((o) => api('GET', '/operator-tokens', { query: { operator: o.name } }).then((r) => r.tokens)),
  );
  return lists.flat().sort((a, b) => b.tokenId - a.tokenId);
}

export function TokensPage() {
  const canWrite = usePermission('operators.write');
  const [tick, setTick] = useState(0);
  const [state, setState] = useState(
    /** @type {{ tokens?: any[], error?: any }} */ ({ tokens: undefined, error: undefined }),
  );
  useEffect(() => {
    let live = true;
    allTokens().then(
      (tokens) => live && setState({ tokens, error: undefined }),
      (error) => live && setState({ tokens: undefined, error }),
    );
    return () => {
      live = false;
    };
  }, [tick]);
  const revoke = useRevoke(() => setTick((n) => n + 1));
  return html`<section class="tokens">
    <h1>API tokens</h1>
    <${PeopleTabs} active="tokens" />
    <p class="muted">Every operator's tokens for scripts and the CLI; mint one on its operator's page.</p>
    <${ErrorBox} error=${state.error} />
    <${RevokeStatus} revoke=${revoke} />
    ${!state.tokens && !state.error ? html`<${Loading} what="tokens" />` : null}
    ${state.tokens ? html`<${TokenTable} tokens=${state.tokens} canWrite=${canWrite} onRevoke=${revoke.run} showOwner />` : null}
  </section>`;
}
