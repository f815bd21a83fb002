// pages/consumption.js - in-game consumption notices (4.6) the games sent, newest first, by app and user, each with its forward to the partner URL.
import { ErrorBox, FilterForm, Loading, Pager, Table, href, html, navigate, show, time, useApi } from '/console/ui.js';

/** The game's timestamp (Unix seconds) as local time, with the number itself. */
const gameTime = (s) =>
  typeof s === 'number'
    ? html`${time(new Date(s * 1000).toISOString())} <small class="muted">${String(s)}</small>`
    : show(s);

export function ConsumptionPage({ route }) {
  const query = route.query;
  const { data, error, loading } = useApi('GET', '/consumption-notices', { query }, [JSON.stringify(query)]);
  return html`<section>
    <h1>Consumption notices</h1>
    <p class="muted">
      Purchases games report made in the game (4.6), each forwarded to the app's partner URL through the outbox.
    </p>
    <${FilterForm}
      key=${JSON.stringify(query)}
      query=${query}
      onApply=${(v) => navigate('/consumption', { ...v, limit: query.limit })}
      fields=${[
        { name: 'appId', label: 'App id', inputmode: 'numeric', size: 6 },
        { name: 'userId', label: 'User id', size: 10 },
      ]}
    />
    <${ErrorBox} error=${error} />
    ${
      loading
        ? html`<${Loading} what="consumption notices" />`
        : data
          ? html` <${Table}
                rowKey=${(n) => n.noticeId}
                empty="No consumption notices match."
                rows=${data.notices}
                columns=${[
                  { label: 'Notice', key: 'noticeId' },
                  { label: 'Received', render: (n) => time(n.receivedAt) },
                  { label: 'App', render: (n) => html`<a href=${href(`/apps/${n.appId}`)}>${n.appId}</a>` },
                  { label: 'User', render: (n) => html`<a href=${href(`/users/${n.userId}`)}>${n.userId}</a>` },
                  { label: 'Role', key: 'roleId' },
                  { label: 'Server', key: 'serverId' },
                  { label: 'Product', render: (n) => html`<code>${n.productCode}</code>` },
                  { label: 'Game time', render: (n) => gameTime(n.timestamp) },
                  {
                    label: 'Partner forward',
                    render: (n) =>
                      n.eventId === null || n.eventId === undefined
                        ? show(null)
                        : html`<a href=${href(`/events/${n.eventId}`)}>event ${n.eventId}</a>`,
                  },
                ]}
              />
              <${Pager}
                next=${data.nextBefore}
                isFirst=${!query.before}
                onNext=${() => navigate('/consumption', { ...query, before: data.nextBefore })}
                onFirst=${() => navigate('/consumption', { ...query, before: undefined })}
              />`
          : null
    }
  </section>`;
}
