// pages/adminactions.js - the admin API's audit trail: every request that changed something, who sent it (the
// signed-in operator; ADMIN_TOKEN for the break-glass token), sign-ins and account changes, newest first, filtered
// and paged.
import { ErrorBox, FilterForm, Loading, Pager, Table, html, navigate, show, time, useApi } from '/console/ui.js';

const METHODS = ['', 'POST', 'PUT', 'PATCH', 'DELETE'];

export function AdminActionsPage({ route }) {
  const query = route.query;
  const { data, error, loading } = useApi('GET', '/admin-actions', { query }, [JSON.stringify(query)]);
  return html`<section>
    <h1>Admin audit trail</h1>
    <p class="muted">Every change made through the admin API (this console included), with the operator who made it.</p>
    <${FilterForm}
      key=${JSON.stringify(query)}
      query=${query}
      onApply=${(v) => navigate('/admin-actions', { ...v, limit: query.limit })}
      fields=${[
        { name: 'operator', label: 'Operator', maxlength: 100 },
        { name: 'method', label: 'Method', as: 'select', options: METHODS },
        { name: 'from', label: 'From', size: 20, placeholder: '2026-11-01T00:00:00Z' },
        { name: 'to', label: 'Before', size: 20 },
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} what="admin actions" />`
        : data
          ? html` <${Table}
                rowKey=${(a) => a.actionId}
                empty="No admin actions match."
                rows=${data.actions}
                columns=${[
                  { label: 'Id', key: 'actionId' },
                  { label: 'When', render: (a) => time(a.at) },
                  { label: 'Operator', render: (a) => show(a.operator) },
                  { label: 'Request', render: (a) => html`<code>${a.method} ${a.path}</code>` },
                  { label: 'Event', render: (a) => show(a.event) },
                  { label: 'Note', render: (a) => show(a.note) },
                  { label: 'Status', render: (a) => show(a.status === null ? null : String(a.status)) },
                  { label: 'From IP', key: 'ip' },
                  { label: 'Request id', render: (a) => html`<code>${a.requestId}</code>` },
                ]}
              />
              <${Pager}
                next=${data.nextBefore}
                isFirst=${!query.before}
                onNext=${() => navigate('/admin-actions', { ...query, before: data.nextBefore })}
                onFirst=${() => navigate('/admin-actions', { ...query, before: undefined })}
              />`
          : null
    }
  </section>`;
}
