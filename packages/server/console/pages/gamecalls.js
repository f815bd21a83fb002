// @ts-check
// pages/gamecalls.js - one app's log of role query, role list and pre-order check calls (4.8-4.10): by kind, outcome, failure, or one player's role, user or server.
import { appListHead } from '/console/kit/app-list.js';
import { BEFORE_PAGING, ListPage, html } from '/console/ui.js';

const KINDS = ['', 'role_query', 'role_list', 'pre_order_check'];
const OUTCOMES = [
  '',
  'ok',
  'no_role',
  'blocked',
  'rejected',
  'invalid_response',
  'timeout',
  'network',
  'refused',
  'not_configured',
];

/** One app's game-call log, declared for the kit's ListPage. */
/** @type {(appId: number | string) => import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/game-calls', 'calls'>} */
const gameCalls = (appId) => ({
  ...appListHead(appId, 'Game-call log', 'game-calls', 'delivery'),
  rows: 'calls',
  rowKey: (c) => c.callId,
  empty: 'No calls match.',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'kind', label: 'Kind', as: 'select', options: KINDS },
    { name: 'outcome', label: 'Outcome', as: 'select', options: OUTCOMES },
    {
      name: 'failed',
      label: 'Failed only',
      as: 'select',
      options: [
        ['', 'all'],
        ['true', 'failed only'],
      ],
    },
    { name: 'roleId', label: 'Role id' },
    { name: 'userId', label: 'User id' },
    { name: 'serverId', label: 'Server id' },
  ],
  columns: [
    { label: 'Call', key: 'callId' },
    { label: 'Started', key: 'startedAt', as: 'time' },
    { label: 'Kind', key: 'kind' },
    {
      label: 'About',
      render: (c) =>
        [c.roleId && `role ${c.roleId}`, c.userId && `user ${c.userId}`, c.serverId && `server ${c.serverId}`]
          .filter(Boolean)
          .join(', ') || '-',
    },
    { label: 'Try', key: 'tryNo' },
    { label: 'URL', key: 'url' },
    { label: 'HTTP', key: 'httpStatus' },
    { label: 'ms', key: 'latencyMs' },
    { label: 'Outcome', render: (c) => html`<span class=${c.outcome === 'ok' ? 'ok' : 'bad'}>${c.outcome}</span>` },
    { label: 'Error', key: 'error' },
  ],
});

export function GameCallsPage({ appId, route }) {
  return html`<${ListPage} spec=${gameCalls(appId)} query=${route.query} at=${`/apps/${appId}/game-calls`} />`;
}
