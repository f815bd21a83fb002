// @ts-check
// pages/gamecalls.js - one app's log of role query, role list and pre-order check calls (4.8-4.10): by kind, outcome, failure, or one player's role, user or server.
import { appListHead } from '/console/kit/app-list.js';
import { BEFORE_PAGING, ListPage, html } from '/console/ui.js';

/** @typedef {NonNullable<import('page-types').Query<'/admin/v1/apps/{appId}/game-calls'>['kind']>} CallKind */
/** @typedef {NonNullable<import('page-types').Query<'/admin/v1/apps/{appId}/game-calls'>['outcome']>} CallOutcome */

// The filters' choices come from the service's schemas through page-types (as kit/event-types.js does): one key per
// value of the schema's enum, so tsc fails when the page misses a value or names one the service does not have.
/** @type {{ [K in CallKind]: true }} */
const KIND_SET = { role_query: true, role_list: true, pre_order_check: true };
/** @type {{ [K in CallOutcome]: true }} */
const OUTCOME_SET = {
  ok: true,
  no_role: true,
  blocked: true,
  rejected: true,
  invalid_response: true,
  timeout: true,
  network: true,
  refused: true,
  not_configured: true,
};
// '' first: any kind, any outcome.
const KINDS = ['', ...Object.keys(KIND_SET)];
const OUTCOMES = ['', ...Object.keys(OUTCOME_SET)];

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
