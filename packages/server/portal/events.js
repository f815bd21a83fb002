// events.js - an app's notification events: the list (resend several), one event with every attempt (resend it),
// recovering dead events since a time, and test events.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/portal/api.js';
import { ErrorBox, Field, html, useAction, useApi, when } from '/portal/ui.js';

export function Events({ appId, eventId, filters = {} }) {
  const [state, setState] = useState(filters.state ?? '');
  const { from, to } = filters;
  const [selected, setSelected] = useState(new Set());
  const list = useApi(`/apps/${appId}/events`, { state, from, to, limit: 100 }, [appId, state]);
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
    ${from || to ? html`<p class="muted window">Created from ${from ?? '…'} to ${to ?? '…'}</p>` : null}
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
