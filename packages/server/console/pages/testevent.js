// @ts-check
// pages/testevent.js - the delivery tab's first panel: send a test event and watch it arrive in place. The app's last
// test event is shown on opening; after a send, the new one. Its state and last attempts (status, latency, the game's
// answer) are read again (GET /admin/v1/events/{eventId}) until it is delivered or dead.
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { Details, ErrorBox, Field, Table, href, html, show, time, useAction } from '/console/ui.js';
import { RunButton } from '/console/pages/apptools.js';
import { TEST_EVENT_TYPES } from '/console/kit/event-types.js';

/** How often a pending test event is read again: its first attempt is made within a moment of the send. */
const POLL_MS = 1000;
/** How many attempts are shown: the last one in full, the ones before it in a table. */
const SHOWN_ATTEMPTS = 3;

/**
 * The event `eventId` (or the app's latest test event when undefined), read until it is delivered or dead:
 * { event, error } (event null: the app has no test event yet).
 */
function useWatchedEvent(appId, eventId, round) {
  const [event, setEvent] = useState(undefined);
  const [error, setError] = useState(undefined);
  useEffect(() => {
    let live = true;
    let timer;
    const latest = () =>
      api('GET', '/events', { query: { appId, type: 'test', limit: 1 } }).then((r) => r.events[0]?.eventId ?? null);
    const read = async (id) => {
      try {
        const e = id === null ? null : await api('GET', `/events/${encodeURIComponent(id)}`);
        if (!live) return;
        setEvent(e);
        setError(undefined);
        if (e?.state === 'pending') timer = setTimeout(() => read(id), POLL_MS);
      } catch (err) {
        if (live) setError(err);
      }
    };
    setEvent(undefined);
    (eventId === undefined ? latest() : Promise.resolve(eventId)).then(read, (err) => live && setError(err));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [appId, eventId, round]);
  return { event, error };
}

/** The event's state in words. */
function stateText(e) {
  if (e.state === 'delivered')
    return `delivered ${e.attempts === 1 ? 'at the first attempt' : `at attempt ${e.attempts}`}`;
  if (e.state === 'dead') return `dead: given up after ${e.attempts} attempt${e.attempts === 1 ? '' : 's'}`;
  if (e.attempts === 0) return 'queued: the first attempt is on its way';
  return `retrying: attempt ${e.attempts} failed`;
}

/** An attempt's result: the outcome and HTTP status. */
const resultOf = (a) =>
  `${a.outcome}${a.httpStatus === null || a.httpStatus === undefined ? '' : ` (HTTP ${a.httpStatus})`}`;

function TestEventResult({ event: e }) {
  const attempts = e.attemptLog.slice(-SHOWN_ATTEMPTS).reverse();
  const [last, ...earlier] = attempts;
  return html`<div class="test-result" data-event=${String(e.eventId)} data-state=${e.state} role="status">
    <p>
      <strong>Test event <a href=${href(`/events/${e.eventId}`)}>${String(e.eventId)}</a>:</strong>${' '}
      <span class=${`state-${e.state}`}>${stateText(e)}</span>${' '}
      <span class="muted"
        >sent
        ${time(e.createdAt)}${e.state === 'pending' && e.attempts > 0 ? html`, next attempt ${time(e.nextAttemptAt)}` : null}</span
      >
    </p>
    ${
      last
        ? html`<${Details}
            rows=${[
              [
                'Last attempt',
                html`<span class=${`attempt-result ${last.outcome === 'delivered' ? 'ok' : 'bad'}`}
                  >${resultOf(last)}</span
                >`,
              ],
              [
                'Latency',
                html`<span class="attempt-latency"
                  >${last.latencyMs === null ? show(null) : `${last.latencyMs} ms`}</span
                >`,
              ],
              ["Game's answer", html`<pre class="attempt-answer">${last.error ?? last.responseBody ?? ''}</pre>`],
              ['URL', html`<code class="copy-value">${last.url}</code>`],
              ['At', time(last.startedAt)],
            ]}
          />`
        : null
    }
    ${
      earlier.length
        ? html`<${Table}
            className="earlier-attempts"
            rowKey=${(a) => a.attemptNo}
            rows=${earlier}
            columns=${[
              { label: 'Earlier attempt', key: 'attemptNo' },
              { label: 'At', key: 'startedAt', as: 'time' },
              { label: 'Result', render: resultOf },
              { label: 'ms', key: 'latencyMs' },
              {
                label: 'Answer / error',
                render: (a) => html`<span class="clip">${show(a.error ?? a.responseBody)}</span>`,
              },
            ]}
          />`
        : null
    }
  </div>`;
}

/** Send a test event (type, optional server id; asks first) and see, in place, whether and how it arrived. */
export function TestEventPanel({ appId, round = 0 }) {
  const [type, setType] = useState('payment');
  const [serverId, setServerId] = useState('');
  const [eventId, setEventId] = useState(undefined);
  const send = useAction(async () => {
    const sent = await api('POST', `/apps/${encodeURIComponent(appId)}/test-events`, {
      body: { type, ...(serverId.trim() ? { serverId: serverId.trim() } : {}) },
    });
    setEventId(sent.eventId);
    return sent;
  });
  const { event, error } = useWatchedEvent(appId, eventId, round);
  return html`<div class="panel test-event">
    <h2>Send a test event</h2>
    <p class="muted">
      Signed and delivered exactly like a real notification, to the app's payment callback (or cancellation) URL; its
      result shows here as soon as the game answers.
    </p>
    <${ErrorBox} error=${send.error} />
    <div class="inline-fields">
      <${Field} label="Type" name="testType" as="select" options=${TEST_EVENT_TYPES} value=${type} onInput=${setType} />
      <${Field}
        label="Server id (callback URL map; empty: default)"
        name="testServerId"
        value=${serverId}
        onInput=${setServerId}
        maxlength="64"
      />
      <${RunButton}
        id="send-test-event"
        action=${send}
        label="Send test event"
        question=${`Send a test ${type} event to the game now?`}
        confirmLabel="Yes, send it"
      />
    </div>
    <${ErrorBox} error=${error} />
    ${
      event
        ? html`<${TestEventResult} event=${event} />`
        : event === null
          ? html`<p class="muted no-test-event">No test event sent for this app yet.</p>`
          : null
    }
  </div>`;
}
