// @ts-check
// pages/events.js - delivery: outbox events filtered by app, state and type, and an event's detail with its attempts and resend.
import { api } from '/console/api.js';
import {
  BEFORE_PAGING,
  ActionStatus,
  ConfirmButton,
  Details,
  ListPage,
  Table,
  href,
  html,
  show,
  time,
  useAction,
  useRecord,
} from '/console/ui.js';
import { EVENT_STATES, EVENT_TYPES } from '/console/kit/event-types.js';

// '' first: any state, any type.
const STATES = ['', ...EVENT_STATES];
const TYPES = ['', ...EVENT_TYPES];

/** The delivery list, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/events', 'events'>} */
const EVENT_LIST = {
  title: 'Delivery events',
  path: '/events',
  rows: 'events',
  rowKey: (e) => e.eventId,
  rowLink: (e) => href(`/events/${e.eventId}`),
  what: 'events',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'appId', label: 'App id', size: 6 },
    { name: 'state', label: 'State', as: 'select', options: STATES },
    { name: 'type', label: 'Type', as: 'select', options: TYPES },
  ],
  columns: [
    { label: 'Event', key: 'eventId' },
    { label: 'Created', key: 'createdAt', as: 'time' },
    { label: 'App', key: 'appId' },
    { label: 'Type', key: 'type' },
    { label: 'Target', key: 'target' },
    { label: 'State', render: (e) => html`<span class=${`state-${e.state}`}>${e.state}</span>` },
    { label: 'Attempts', key: 'attempts' },
    { label: 'Last error', render: (e) => html`<span class="clip">${show(e.lastError)}</span>` },
  ],
};

function EventDetail({ eventId }) {
  const path = `/events/${encodeURIComponent(eventId)}`;
  const page = { what: 'event', title: `Event ${eventId}`, back: '#/events', backLabel: 'All events' };
  /** @type {import('page-types').RecordOf<'/admin/v1/events/{eventId}'>} */
  const { data: e, reload, placeholder } = useRecord(path, {}, [eventId], page);
  const resend = useAction(() => api('POST', `${path}/resend`), reload);
  if (placeholder) return placeholder;
  return html`<section>
    <h1>Event ${e.eventId} <span class=${`state-${e.state}`}>${e.state}</span></h1>
    <p>
      <a href=${href('/events', { appId: e.appId })}>Events of app ${e.appId}</a> ·
      <button type="button" onClick=${reload}>Refresh</button>
    </p>
    <${ActionStatus} action=${resend} done=${(r) => `Queued for delivery now (state ${r.state}).`} />
    <p class="actions">
      <${ConfirmButton}
        label="Resend"
        question="Deliver this event to the game again now (same notifyId and body, fresh signature)?"
        onConfirm=${resend.run}
        danger=${false}
      />
    </p>
    <${Details}
      rows=${[
        ['App', html`<a href=${href(`/apps/${e.appId}/delivery`)}>${e.appId}</a>`],
        ['Type', e.type],
        ['Target', `${e.target}${e.serverId ? ` (server ${e.serverId})` : ''}`],
        ['Attempts', String(e.attempts)],
        ['Next attempt', time(e.nextAttemptAt)],
        ['Created', time(e.createdAt)],
        ['Delivered', time(e.deliveredAt)],
        ['Dead', time(e.deadAt)],
        ['Last error', show(e.lastError)],
        ['Body', html`<pre>${e.body}</pre>`],
      ]}
    />
    <h2>Attempts</h2>
    <${Table}
      rowKey=${(a) => a.attemptNo}
      rows=${e.attemptLog}
      empty="No attempts yet."
      columns=${[
        { label: '#', key: 'attemptNo' },
        { label: 'Started', key: 'startedAt', as: 'time' },
        { label: 'URL', key: 'url' },
        { label: 'HTTP', key: 'httpStatus' },
        { label: 'ms', key: 'latencyMs' },
        {
          label: 'Outcome',
          render: (a) => html`<span class=${a.outcome === 'delivered' ? 'ok' : 'bad'}>${a.outcome}</span>`,
        },
        { label: 'Answer / error', render: (a) => html`<span class="clip">${show(a.error ?? a.responseBody)}</span>` },
      ]}
    />
  </section>`;
}

export function EventsPage({ route }) {
  const [, id] = route.segments;
  if (id) return html`<${EventDetail} eventId=${id} />`;
  return html`<${ListPage} spec=${EVENT_LIST} query=${route.query} at="/events" />`;
}
