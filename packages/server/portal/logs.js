// logs.js - an app's game-call log (4.8-4.10, with why each call failed) and its consumption notices (4.6).
import { useState } from '/console/vendor/hooks.module.js';
import { ErrorBox, Field, html, useApi, when } from '/portal/ui.js';

export function GameCalls({ appId, filters = {} }) {
  const [failed, setFailed] = useState(filters.failed ?? '');
  const { kind, from, to } = filters;
  const list = useApi(`/apps/${appId}/game-calls`, { failed, kind, from, to, limit: 100 }, [appId, failed]);
  return html`<div>
    ${kind || from || to ? html`<p class="muted window">${kind ?? 'All kinds'}, from ${from ?? '…'} to ${to ?? '…'}</p>` : null}
    <form class="filters" onSubmit=${(e) => e.preventDefault()}>
      <${Field}
        label="Failed only"
        name="failed"
        as="select"
        value=${failed}
        onInput=${setFailed}
        options=${['', 'true']}
      />
    </form>
    <${ErrorBox} error=${list.error} />
    <table class="game-calls">
      <thead>
        <tr>
          <th>Call</th>
          <th>Kind</th>
          <th>Started</th>
          <th>Try</th>
          <th>Outcome</th>
          <th>HTTP</th>
          <th>Latency</th>
          <th>Why</th>
        </tr>
      </thead>
      <tbody>
        ${(list.data?.calls ?? []).map(
          (c) =>
            html`<tr>
              <td>${c.callId}</td>
              <td>${c.kind}</td>
              <td>${when(c.startedAt)}</td>
              <td>${c.tryNo}</td>
              <td class=${c.outcome === 'ok' ? 'ok' : 'bad'}>${c.outcome}</td>
              <td>${c.httpStatus ?? '—'}</td>
              <td>${c.latencyMs} ms</td>
              <td>${c.error ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function Notices({ appId }) {
  const list = useApi(`/apps/${appId}/consumption-notices`, { limit: 50 }, [appId]);
  return html`<div>
    <${ErrorBox} error=${list.error} />
    <table class="notices">
      <thead>
        <tr>
          <th>Notice</th>
          <th>User</th>
          <th>Server</th>
          <th>Role</th>
          <th>Product</th>
          <th>Received</th>
          <th>Event</th>
        </tr>
      </thead>
      <tbody>
        ${(list.data?.notices ?? []).map(
          (n) =>
            html`<tr>
              <td>${n.noticeId}</td>
              <td>${n.userId}</td>
              <td>${n.serverId}</td>
              <td>${n.roleId}</td>
              <td>${n.productCode}</td>
              <td>${when(n.receivedAt)}</td>
              <td><a href=${`#/apps/${appId}/events?event=${n.eventId}`}>${n.eventId}</a></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
