// app-page.js - one of the studio's apps: its notification events and their attempts (resend one or many, recover
// dead ones, send a test event), its game-call log (4.8-4.10), its consumption notices (4.6), and its settings
// (callback and game URLs, md5 secret rotation).
import { useState } from '/portal/vendor/hooks.module.js';
import { api } from '/portal/api.js';
import { ErrorBox, Field, html, useAction, useApi, when } from '/portal/ui.js';

const TABS = [
  ['events', 'Events'],
  ['game-calls', 'Game calls'],
  ['notices', 'Consumption notices'],
  ['settings', 'Settings'],
];

export function AppPage({ appId, tab, query }) {
  const app = useApi(`/apps/${encodeURIComponent(appId)}`, {}, [appId]);
  if (app.error)
    return html`<section class="refused">
      <h1>App ${appId}</h1>
      <p class="notfound">This app is not one of yours.</p>
      <${ErrorBox} error=${app.error} />
      <p><a href="#/apps">Back to your apps</a></p>
    </section>`;
  if (!app.data) return html`<p class="muted">Loading…</p>`;
  const a = app.data;
  let body;
  if (tab === 'game-calls') body = html`<${GameCalls} appId=${a.appId} />`;
  else if (tab === 'notices') body = html`<${Notices} appId=${a.appId} />`;
  else if (tab === 'settings') body = html`<${Settings} app=${a} onSaved=${app.reload} />`;
  else body = html`<${Events} appId=${a.appId} eventId=${query.event} />`;
  return html`<section>
    <h1>${a.name} <span class="muted">app ${a.appId}</span></h1>
    <p class="tabs">
      ${TABS.map(
        ([key, label]) => html`<a href=${`#/apps/${a.appId}/${key}`} class=${key === tab ? 'active' : ''}>${label}</a>`,
      )}
    </p>
    ${body}
  </section>`;
}

function Events({ appId, eventId }) {
  const [state, setState] = useState('');
  const [selected, setSelected] = useState(new Set());
  const list = useApi(`/apps/${appId}/events`, { state, limit: 50 }, [appId, state]);
  const resendMany = useAction(async () => {
    const r = await api('POST', `/apps/${appId}/events/resend`, { body: { eventIds: [...selected] } });
    setSelected(new Set());
    list.reload();
    return r;
  });
  const toggle = (id) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  return html`<div>
    ${eventId ? html`<${EventDetail} appId=${appId} eventId=${eventId} onChange=${list.reload} />` : null}
    <form class="filters" onSubmit=${(e) => e.preventDefault()}>
      <${Field}
        label="State"
        name="state"
        as="select"
        value=${state}
        onInput=${setState}
        options=${['', 'pending', 'delivered', 'dead']}
      />
      <button type="button" class="refresh" onClick=${list.reload}>Refresh</button>
      <button
        type="button"
        class="resend-selected"
        disabled=${selected.size === 0 || resendMany.busy}
        onClick=${() => resendMany.run()}
      >
        Resend selected (${selected.size})
      </button>
    </form>
    <${ErrorBox} error=${list.error || resendMany.error} />
    ${resendMany.result ? html`<p class="ok">Resent ${resendMany.result.resent.length} event(s).</p>` : null}
    <table class="events">
      <thead>
        <tr>
          <th></th>
          <th>Event</th>
          <th>Type</th>
          <th>State</th>
          <th>Attempts</th>
          <th>Last error</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        ${(list.data?.events ?? []).map(
          (e) =>
            html`<tr data-event=${e.eventId}>
              <td>
                <input
                  type="checkbox"
                  aria-label=${`select event ${e.eventId}`}
                  checked=${selected.has(e.eventId)}
                  onChange=${() => toggle(e.eventId)}
                />
              </td>
              <td><a href=${`#/apps/${appId}/events?event=${e.eventId}`}>${e.eventId}</a></td>
              <td>${e.type}</td>
              <td class=${`state-${e.state}`}>${e.state}</td>
              <td>${e.attempts}</td>
              <td><span class="clip">${e.lastError ?? ''}</span></td>
              <td>${when(e.createdAt)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <${Recover} appId=${appId} onDone=${list.reload} />
    <${TestEvent} appId=${appId} onDone=${list.reload} />
  </div>`;
}

function EventDetail({ appId, eventId, onChange }) {
  const detail = useApi(`/apps/${appId}/events/${encodeURIComponent(eventId)}`, {}, [appId, eventId]);
  const resend = useAction(async () => {
    const r = await api('POST', `/apps/${appId}/events/${encodeURIComponent(eventId)}/resend`);
    onChange();
    return r;
  });
  const e = detail.data;
  return html`<div class="panel event-detail">
    <h2>Event ${eventId}</h2>
    <${ErrorBox} error=${detail.error || resend.error} />
    ${
      e
        ? html`<dl class="details">
              <dt>Type</dt>
              <dd>${e.type}</dd>
              <dt>State</dt>
              <dd class=${`state-${e.state}`}>${e.state}</dd>
              <dt>Server</dt>
              <dd>${e.serverId ?? '—'}</dd>
              <dt>Body</dt>
              <dd><pre>${e.body}</pre></dd>
            </dl>
            <div class="actions">
              <button
                type="button"
                class="resend"
                disabled=${resend.busy}
                onClick=${async () => {
                  await resend.run();
                  detail.reload();
                }}
              >
                Resend now
              </button>
              <button type="button" onClick=${detail.reload}>Refresh attempts</button>
              ${resend.result ? html`<span class="ok">Queued for delivery.</span>` : null}
            </div>
            <h3>Attempts</h3>
            <table class="attempts">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Started</th>
                  <th>Outcome</th>
                  <th>HTTP</th>
                  <th>Latency</th>
                  <th>URL</th>
                  <th>Answer (excerpt)</th>
                  <th>Error</th>
                </tr>
              </thead>
              <tbody>
                ${e.attemptLog.map(
                  (t) =>
                    html`<tr>
                      <td>${t.attemptNo}</td>
                      <td>${when(t.startedAt)}</td>
                      <td class=${t.outcome === 'delivered' ? 'ok' : 'bad'}>${t.outcome}</td>
                      <td>${t.httpStatus ?? '—'}</td>
                      <td>${t.latencyMs} ms</td>
                      <td><span class="clip">${t.url ?? ''}</span></td>
                      <td><span class="clip">${t.responseBody ?? ''}</span></td>
                      <td>${t.error ?? ''}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : null
    }
  </div>`;
}

function Recover({ appId, onDone }) {
  const [since, setSince] = useState('');
  const recover = useAction(async () => {
    const r = await api('POST', `/apps/${appId}/events/recover`, { body: { since: new Date(since).toISOString() } });
    onDone();
    return r;
  });
  return html`<form
    class="inline-fields recover"
    onSubmit=${(e) => {
      e.preventDefault();
      recover.run();
    }}
  >
    <${Field}
      label="Recover dead events since"
      name="since"
      type="datetime-local"
      value=${since}
      onInput=${setSince}
      required
    />
    <button type="submit" disabled=${recover.busy}>Recover</button>
    ${recover.result ? html`<span class="ok">Recovered ${recover.result.recovered}.</span>` : null}
    <${ErrorBox} error=${recover.error} />
  </form>`;
}

function TestEvent({ appId, onDone }) {
  const [type, setType] = useState('payment');
  const send = useAction(async () => {
    const r = await api('POST', `/apps/${appId}/test-events`, { body: { type } });
    onDone();
    return r;
  });
  return html`<form
    class="inline-fields test-event"
    onSubmit=${(e) => {
      e.preventDefault();
      send.run();
    }}
  >
    <${Field}
      label="Test event"
      name="test-type"
      as="select"
      value=${type}
      onInput=${setType}
      options=${['payment', 'refund', 'cancellation']}
    />
    <button type="submit" disabled=${send.busy}>Send test event</button>
    ${send.result ? html`<span class="ok">Test event ${send.result.eventId} queued.</span>` : null}
    <${ErrorBox} error=${send.error} />
  </form>`;
}

function GameCalls({ appId }) {
  const [failed, setFailed] = useState('');
  const list = useApi(`/apps/${appId}/game-calls`, { failed, limit: 50 }, [appId, failed]);
  return html`<div>
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

function Notices({ appId }) {
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

const URL_FIELDS = [
  ['roleQueryUrl', 'Role query URL (4.8)'],
  ['roleListUrl', 'Role list URL (4.9)'],
  ['preOrderCheckUrl', 'Pre-order check URL (4.10)'],
  ['cancellationCallbackUrl', 'Account cancellation callback URL (6)'],
  ['partnerUrl', 'Partner URL for consumption notices (4.6)'],
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

function Settings({ app, onSaved }) {
  const [callbacks, setCallbacks] = useState(mapText(app.callbackUrls));
  const [urls, setUrls] = useState(Object.fromEntries(URL_FIELDS.map(([k]) => [k, app[k] ?? ''])));
  const save = useAction(async () => {
    const body = { callbackUrls: parseMap(callbacks) };
    for (const [k] of URL_FIELDS) body[k] = urls[k].trim() === '' ? null : urls[k].trim();
    const r = await api('PATCH', `/apps/${app.appId}`, { body });
    onSaved();
    return r;
  });
  const [asking, setAsking] = useState(false);
  const rotate = useAction(() => api('POST', `/apps/${app.appId}/rotate-secret`));
  return html`<div>
    <form
      class="stacked settings"
      onSubmit=${(e) => {
        e.preventDefault();
        save.run();
      }}
    >
      <${Field}
        label="Payment callback URLs (4.7)"
        name="callbackUrls"
        as="textarea"
        rows="4"
        value=${callbacks}
        onInput=${setCallbacks}
        hint="One a line: the default URL, or serverId = URL."
      />
      ${URL_FIELDS.map(
        ([k, label]) =>
          html`<${Field} label=${label} name=${k} value=${urls[k]} onInput=${(v) => setUrls({ ...urls, [k]: v })} />`,
      )}
      <button type="submit" disabled=${save.busy}>Save URLs</button>
      ${save.result ? html`<span class="ok"> Saved.</span>` : null}
      <${ErrorBox} error=${save.error} />
    </form>
    <div class="panel">
      <h2>md5 secret</h2>
      <p class="muted">
        Last rotated
        ${when(app.secretRotatedAt)}.${app.previousSecretExpiresAt ? ` The previous secret is accepted until ${when(app.previousSecretExpiresAt)}.` : ''}
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
