// pages/audit.js - the moderation audit log: moderator actions (decisions, evidence views, bans, lifted bans), newest first, filtered and cursor-paged.
import { ErrorBox, FilterForm, Loading, Pager, Table, href, html, navigate, show, time, useApi } from '/console/ui.js';

const ACTIONS = ['', 'set_status', 'view_evidence', 'ban_account', 'lift_ban'];

/** `tabs`: the Reports section's tab bar, given by pages/reports.js. */
export function AuditLog({ query, tabs }) {
  const { data, error, loading } = useApi('GET', '/moderation/audit', { query }, [JSON.stringify(query)]);
  return html`<section>
    <h1>Moderation audit log</h1>
    ${tabs}
    <${FilterForm}
      key=${JSON.stringify(query)}
      query=${query}
      onApply=${(v) => navigate('/reports/audit', { ...v, limit: query.limit })}
      fields=${[
        { name: 'reportId', label: 'Report id', inputmode: 'numeric', size: 8 },
        { name: 'moderator', label: 'Moderator', maxlength: 100 },
        { name: 'action', label: 'Action', as: 'select', options: ACTIONS },
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} what="audit log" />`
        : data
          ? html` <${Table}
                rowKey=${(a) => a.actionId}
                empty="No moderator actions match."
                rows=${data.actions}
                columns=${[
                  { label: 'Action id', key: 'actionId' },
                  { label: 'When', render: (a) => time(a.at) },
                  { label: 'Action', render: (a) => html`<span class=${`action-${a.action}`}>${a.action}</span>` },
                  {
                    label: 'Report',
                    render: (a) =>
                      a.reportId === null
                        ? show(null)
                        : html`<a href=${href(`/reports/${a.reportId}`)}>#${a.reportId}</a>`,
                  },
                  {
                    label: 'App',
                    render: (a) =>
                      a.appId === null ? show(null) : html`<a href=${href(`/apps/${a.appId}`)}>${a.appId}</a>`,
                  },
                  { label: 'Moderator', render: (a) => show(a.moderator) },
                  {
                    label: 'Status',
                    render: (a) =>
                      a.fromStatus || a.toStatus ? `${a.fromStatus ?? '-'} \u2192 ${a.toStatus ?? '-'}` : show(null),
                  },
                  { label: 'Note', render: (a) => html`<span class="clip">${show(a.note)}</span>` },
                  {
                    label: 'Details',
                    render: (a) => (a.details ? html`<code>${JSON.stringify(a.details)}</code>` : show(null)),
                  },
                ]}
              />
              <${Pager}
                next=${data.nextCursor}
                isFirst=${!query.cursor}
                onNext=${() => navigate('/reports/audit', { ...query, cursor: data.nextCursor })}
                onFirst=${() => navigate('/reports/audit', { ...query, cursor: undefined })}
              />`
          : null
    }
  </section>`;
}
