// @ts-check
// pages/adminactions.js - the admin API's audit trail: every request that changed something, who sent it (the
// signed-in operator; ADMIN_TOKEN for the break-glass token), sign-ins and account changes, newest first, filtered
// and paged.
import { BEFORE_PAGING, ListPage, html, show } from '/console/ui.js';

const METHODS = ['', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The audit trail, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/admin-actions', 'actions'>} */
const ADMIN_ACTIONS = {
  title: 'Admin audit trail',
  intro: html`<p class="muted">
    Every change made through the admin API (this console included), with the operator who made it.
  </p>`,
  path: '/admin-actions',
  rows: 'actions',
  rowKey: (a) => a.actionId,
  what: 'admin actions',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'operator', label: 'Operator', maxlength: 100 },
    { name: 'method', label: 'Method', as: 'select', options: METHODS },
    { name: 'from', label: 'From', size: 20, placeholder: '2026-11-01T00:00:00Z' },
    { name: 'to', label: 'Before', size: 20 },
  ],
  columns: [
    { label: 'Id', key: 'actionId' },
    { label: 'When', key: 'at', as: 'time' },
    { label: 'Operator', key: 'operator' },
    { label: 'Request', render: (a) => html`<code>${a.method} ${a.path}</code>` },
    { label: 'Event', key: 'event' },
    { label: 'Note', key: 'note' },
    { label: 'Status', render: (a) => show(a.status === null ? null : String(a.status)) },
    { label: 'From IP', key: 'ip' },
    { label: 'Request id', render: (a) => html`<code>${a.requestId}</code>` },
  ],
};

export function AdminActionsPage({ route }) {
  return html`<${ListPage} spec=${ADMIN_ACTIONS} query=${route.query} at="/admin-actions" />`;
}
