// pages/storemessages.js - one app's store messages (docs/stores.md#operators): every notification the App Store and
// Google Play sent, verified or not, and every refund the reconciliation found, with its outcome; filtered by store
// and outcome, paged. The excerpt comes from a store (or a forger): it is shown as text.
import { ErrorBox, FilterForm, Loading, Pager, Table, href, html, navigate, show, time, useApi } from '/console/ui.js';

const STORES = ['', 'apple', 'google'];
const OUTCOMES = ['', 'applied', 'duplicate', 'ignored', 'refused'];
const OUTCOME_CLASS = { applied: 'ok', refused: 'bad' };

export function StoreMessagesPage({ appId, route }) {
  const q = route.query;
  const path = `/apps/${appId}/store-messages`;
  const { data, error, loading } = useApi('GET', `/apps/${encodeURIComponent(appId)}/store-messages`, { query: q }, [
    appId,
    JSON.stringify(q),
  ]);
  return html`<section>
    <h1>Store messages <span class="muted">app ${appId}</span></h1>
    <p><a href=${href(`/apps/${appId}`)}>Back to the app</a></p>
    <${FilterForm}
      key=${JSON.stringify(q)}
      query=${q}
      onApply=${(v) => navigate(path, { ...v, limit: q.limit })}
      fields=${[
        { name: 'store', label: 'Store', as: 'select', options: STORES },
        { name: 'outcome', label: 'Outcome', as: 'select', options: OUTCOMES },
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} />`
        : data
          ? html`<${Table}
                rowKey=${(m) => m.messageId}
                empty="No store messages match."
                rows=${data.messages}
                columns=${[
                  { label: 'Received', render: (m) => time(m.receivedAt) },
                  { label: 'Store', key: 'store' },
                  { label: 'Source', key: 'source' },
                  { label: 'Type', render: (m) => show(m.type) },
                  {
                    label: 'Outcome',
                    render: (m) => html`<span class=${`outcome ${OUTCOME_CLASS[m.outcome] ?? ''}`}>${m.outcome}</span>`,
                  },
                  { label: 'Reason', render: (m) => show(m.errorCode) },
                  {
                    label: 'trxNo',
                    render: (m) =>
                      m.trxNo === null ? show(null) : html`<a href=${href(`/orders/${m.trxNo}`)}>${m.trxNo}</a>`,
                  },
                  {
                    label: 'Notification id',
                    render: (m) => html`<span class="clip">${show(m.notificationId)}</span>`,
                  },
                  { label: 'Excerpt', render: (m) => html`<span class="excerpt">${show(m.excerpt)}</span>` },
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
