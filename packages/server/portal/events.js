// @ts-check
// events.js - an app's notification events: the list (resend several), one event with every attempt (resend it),
// recovering dead events since a time, and test events.
import { useState } from '/console/vendor/hooks.module.js';
import { EVENT_STATES, TEST_EVENT_TYPES } from '/console/kit/event-types.js';
import { api } from '/portal/api.js';
import { ErrorBox, Field, ListPage, boundFields, html, useAction, useApi, time } from '/portal/ui.js';

/** @param {{ appId: number | string, eventId?: string, filters?: { from?: string, to?: string, state?: string } }} props */
export function Events({ appId, eventId, filters = {} }) {
  const { from, to } = filters;
  const [query, setQuery] = useState({ state: filters.state ?? '', from, to });
  const resendMany = useAction(async (ids, done) => {
    const r = await api('POST', `/apps/${appId}/events/resend`, { body: { eventIds: ids } });
    done();
    return r;
  });
  // The detail's resend reloads the list through this tick (the list page owns its read).
  const [tick, setTick] = useState(0);
  /** @type {import('/console/kit/list.js').ListSpec<'/portal/v1/apps/{appId}/events', 'events'>} */
  const spec = {
    path: `/apps/${appId}/events`,
    rows: 'events',
    rowKey: (e) => e.eventId,
    rowAttrs: (e) => ({ 'data-event': e.eventId }),
    rowLink: (e) => `#/apps/${appId}/events?event=${e.eventId}`,
    select: (e) => e.eventId,
    selectLabel: (e) => `select event ${e.eventId}`,
    fixed: { limit: 100 },
    live: true,
    keep: ['from', 'to'],
    className: 'events',
    what: 'events',
    intro: from || to ? html`<p class="muted window">Created from ${from ?? '…'} to ${to ?? '…'}</p>` : null,
    filters: [{ name: 'state', label: 'State', as: 'select', options: ['', ...EVENT_STATES] }],
    actions: ({ selected, clear, reload }) =>
      html`<button type="button" class="refresh" onClick=${reload}>Refresh</button>
        <button
          type="button"
          class="resend-selected"
          disabled=${selected.size === 0 || resendMany.busy}
          onClick=${() =>
            resendMany.run([...selected], () => {
              clear();
              reload();
            })}
        >
          Resend selected (${selected.size})
        </button>
        <${ErrorBox} error=${resendMany.error} />
        ${resendMany.result ? html`<p class="ok">Resent ${resendMany.result.resent.length} event(s).</p>` : null}`,
    columns: [
      { label: 'Event', key: 'eventId' },
      { label: 'Type', key: 'type' },
      { label: 'State', key: 'state', cellClass: (e) => `state-${e.state}` },
      { label: 'Attempts', key: 'attempts' },
      { label: 'Last error', render: (e) => html`<span class="clip">${e.lastError ?? ''}</span>` },
      { label: 'Created', render: (e) => time(e.createdAt) },
    ],
    footer: ({ reload }) =>
      html`<${Recover} appId=${appId} onDone=${reload} /> <${TestEvent} appId=${appId} onDone=${reload} />`,
  };
  return html`<div>
    ${eventId ? html`<${EventDetail} appId=${appId} eventId=${eventId} onChange=${() => setTick(tick + 1)} />` : null}
    <${ListPage} spec=${spec} query=${query} onQuery=${setQuery} refresh=${tick} />
  </div>`;
}

function EventDetail({ appId, eventId, onChange }) {
  /** @type {import('page-types').ReadOf<'/portal/v1/apps/{appId}/events/{eventId}'>} */
  const detail = useApi(`/apps/${appId}/events/${encodeURIComponent(eventId)}`, {}, [appId, eventId]);
  const resend = useAction(() => api('POST', `/apps/${appId}/events/${encodeURIComponent(eventId)}/resend`), onChange);
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
                      <td>${time(t.startedAt)}</td>
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

/** A one-line form whose submit runs `action`, then says what it came to: `done(result)`, or its error. */
function ActionLine({ className, action, label, done, children }) {
  const submit = (e) => {
    e.preventDefault();
    action.run();
  };
  return html`<form class="inline-fields ${className}" onSubmit=${submit}>
    ${children}
    <button type="submit" disabled=${action.busy}>${label}</button>
    ${action.result ? html`<span class="ok">${done(action.result)}</span>` : null}
    <${ErrorBox} error=${action.error} />
  </form>`;
}

function Recover({ appId, onDone }) {
  const [form, setForm] = useState({ since: '' });
  const field = boundFields(form, setForm);
  const body = () => ({ since: new Date(form.since).toISOString() });
  const recover = useAction(() => api('POST', `/apps/${appId}/events/recover`, { body: body() }), onDone);
  return html`<${ActionLine}
    className="recover"
    action=${recover}
    label="Recover"
    done=${(r) => `Recovered ${r.recovered}.`}
  >
    ${field('since', { label: 'Recover dead events since', type: 'datetime-local', required: true })}
  <//>`;
}

function TestEvent({ appId, onDone }) {
  const [type, setType] = useState('payment');
  const send = useAction(() => api('POST', `/apps/${appId}/test-events`, { body: { type } }), onDone);
  const types = TEST_EVENT_TYPES;
  return html`<${ActionLine}
    className="test-event"
    action=${send}
    label="Send test event"
    done=${(r) => `Test event ${r.eventId} queued.`}
  >
    <${Field} label="Test event" name="test-type" as="select" value=${type} onInput=${setType} options=${types} />
  <//>`;
}
