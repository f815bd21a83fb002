// pages/gamecalls.js - one app's log of role query, role list and pre-order check calls (4.8-4.10): by kind, outcome, failure, or one player's role, user or server.
import { ErrorBox, FilterForm, Loading, Pager, Table, href, html, navigate, show, time, useApi } from '/console/ui.js';

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

export function GameCallsPage({ appId, route }) {
  const q = route.query;
  const path = `/apps/${appId}/game-calls`;
  const { data, error, loading } = useApi('GET', `/apps/${encodeURIComponent(appId)}/game-calls`, { query: q }, [
    appId,
    JSON.stringify(q),
  ]);
  return html`<section>
    <h1>Game-call log <span class="muted">app ${appId}</span></h1>
    <p><a href=${href(`/apps/${appId}`)}>Back to the app</a></p>
    <${FilterForm}
      key=${JSON.stringify(q)}
      query=${q}
      onApply=${(v) => navigate(path, { ...v, limit: q.limit })}
      fields=${[
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
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} />`
        : data
          ? html` <${Table}
                rowKey=${(c) => c.callId}
                empty="No calls match."
                rows=${data.calls}
                columns=${[
                  { label: 'Call', key: 'callId' },
                  { label: 'Started', render: (c) => time(c.startedAt) },
                  { label: 'Kind', key: 'kind' },
                  {
                    label: 'About',
                    render: (c) =>
                      [
                        c.roleId && `role ${c.roleId}`,
                        c.userId && `user ${c.userId}`,
                        c.serverId && `server ${c.serverId}`,
                      ]
                        .filter(Boolean)
                        .join(', ') || '-',
                  },
                  { label: 'Try', key: 'tryNo' },
                  { label: 'URL', render: (c) => show(c.url) },
                  { label: 'HTTP', render: (c) => show(c.httpStatus) },
                  { label: 'ms', key: 'latencyMs' },
                  {
                    label: 'Outcome',
                    render: (c) => html`<span class=${c.outcome === 'ok' ? 'ok' : 'bad'}>${c.outcome}</span>`,
                  },
                  { label: 'Error', render: (c) => show(c.error) },
                ]}
              />
              <${Pager}
                next=${data.nextBefore}
                isFirst=${!q.before}
                onNext=${() => navigate(path, { ...q, before: data.nextBefore })}
                onFirst=${() => navigate(path, { ...q, before: undefined })}
              />`
          : null
    }
  </section>`;
}
