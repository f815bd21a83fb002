// @ts-check
// pages/audit.js - the moderation audit log: moderator actions (decisions, evidence views, bans, lifted bans), newest first, filtered and cursor-paged.
import { CURSOR_PAGING, ListPage, href, html, show } from '/console/ui.js';

const ACTIONS = ['', 'set_status', 'view_evidence', 'ban_account', 'lift_ban'];

/** The moderation audit log, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/moderation/audit', 'actions'>} */
const AUDIT_LOG = {
  title: 'Moderation audit log',
  path: '/moderation/audit',
  rows: 'actions',
  rowKey: (a) => a.actionId,
  what: 'audit log',
  empty: 'No moderator actions match.',
  cursor: CURSOR_PAGING,
  filters: [
    { name: 'reportId', label: 'Report id', inputmode: 'numeric', size: 8 },
    { name: 'moderator', label: 'Moderator', maxlength: 100 },
    { name: 'action', label: 'Action', as: 'select', options: ACTIONS },
  ],
  columns: [
    { label: 'Action id', key: 'actionId' },
    { label: 'When', key: 'at', as: 'time' },
    { label: 'Action', render: (a) => html`<span class=${`action-${a.action}`}>${a.action}</span>` },
    {
      label: 'Report',
      render: (a) =>
        a.reportId === null ? show(null) : html`<a href=${href(`/reports/${a.reportId}`)}>#${a.reportId}</a>`,
    },
    {
      label: 'App',
      render: (a) => (a.appId === null ? show(null) : html`<a href=${href(`/apps/${a.appId}`)}>${a.appId}</a>`),
    },
    { label: 'Moderator', key: 'moderator' },
    {
      label: 'Status',
      render: (a) => (a.fromStatus || a.toStatus ? `${a.fromStatus ?? '-'} \u2192 ${a.toStatus ?? '-'}` : show(null)),
    },
    { label: 'Note', render: (a) => html`<span class="clip">${show(a.note)}</span>` },
    { label: 'Details', render: (a) => (a.details ? html`<code>${JSON.stringify(a.details)}</code>` : show(null)) },
  ],
};

/** `tabs`: the Reports section's tab bar, given by pages/reports.js. */
export function AuditLog({ query, tabs }) {
  return html`<${ListPage} spec=${{ ...AUDIT_LOG, intro: tabs }} query=${query} at="/reports/audit" />`;
}
