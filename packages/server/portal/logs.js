// @ts-check
// logs.js - an app's game-call log (4.8-4.10, with why each call failed) and its consumption notices (4.6), declared
// for the kit's ListPage.
import { useState } from '/console/vendor/hooks.module.js';
import { ListPage, html, time } from '/portal/ui.js';

const dash = (v) => v ?? '—';

/** @param {{ appId: number | string, filters?: { kind?: string, from?: string, to?: string, failed?: string } }} props */
export function GameCalls({ appId, filters = {} }) {
  const { kind, from, to } = filters;
  const [query, setQuery] = useState({ failed: filters.failed ?? '', kind, from, to });
  /** @type {import('/console/kit/list.js').ListSpec<'/portal/v1/apps/{appId}/game-calls', 'calls'>} */
  const spec = {
    path: `/apps/${appId}/game-calls`,
    rows: 'calls',
    rowKey: (c) => `${c.callId}/${c.tryNo}`,
    fixed: { limit: 100 },
    live: true,
    keep: ['kind', 'from', 'to'],
    className: 'game-calls',
    what: 'game calls',
    intro:
      kind || from || to
        ? html`<p class="muted window">${kind ?? 'All kinds'}, from ${from ?? '…'} to ${to ?? '…'}</p>`
        : null,
    filters: [{ name: 'failed', label: 'Failed only', as: 'select', options: ['', 'true'] }],
    columns: [
      { label: 'Call', key: 'callId' },
      { label: 'Kind', key: 'kind' },
      { label: 'Started', render: (c) => time(c.startedAt) },
      { label: 'Try', key: 'tryNo' },
      { label: 'Outcome', key: 'outcome', cellClass: (c) => (c.outcome === 'ok' ? 'ok' : 'bad') },
      { label: 'HTTP', render: (c) => dash(c.httpStatus) },
      { label: 'Latency', render: (c) => `${c.latencyMs} ms` },
      { label: 'Why', render: (c) => c.error ?? '' },
    ],
  };
  return html`<${ListPage} spec=${spec} query=${query} onQuery=${setQuery} />`;
}

export function Notices({ appId }) {
  /** @type {import('/console/kit/list.js').ListSpec<'/portal/v1/apps/{appId}/consumption-notices', 'notices'>} */
  const spec = {
    path: `/apps/${appId}/consumption-notices`,
    rows: 'notices',
    rowKey: (n) => n.noticeId,
    fixed: { limit: 50 },
    className: 'notices',
    what: 'notices',
    empty: 'No consumption notices.',
    columns: [
      { label: 'Notice', key: 'noticeId' },
      { label: 'User', key: 'userId' },
      { label: 'Server', key: 'serverId' },
      { label: 'Role', key: 'roleId' },
      { label: 'Product', key: 'productCode' },
      { label: 'Received', render: (n) => time(n.receivedAt) },
      { label: 'Event', render: (n) => html`<a href=${`#/apps/${appId}/events?event=${n.eventId}`}>${n.eventId}</a>` },
    ],
  };
  return html`<${ListPage} spec=${spec} />`;
}
