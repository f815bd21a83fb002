// @ts-check
// overview.js - the portal's opening view of one app: the console's overview charts (the same module files, served
// once under /console/) over GET /portal/v1/apps/<id>/overview, each figure linking to the portal's own list of
// those rows (events, game calls) or to nothing where the portal has no such list (orders, supplements).
import { OverviewCharts, overviewQuery } from '/console/pages/overview.js';
import { queryString } from '/portal/api.js';
import { ErrorBox, html, useApi } from '/portal/ui.js';

const RANGES = ['24h', '7d', '31d'];

/** The portal's list views behind the figures, filtered as the figure counts. */
const portalLinks = (appId) => ({
  events: (q) => `#/apps/${appId}/events${queryString({ state: q.state, from: q.from, to: q.to })}`,
  gameCalls: (id, q) => `#/apps/${id}/game-calls${queryString(q)}`,
});

export function Overview({ appId, query }) {
  const q = overviewQuery({ range: query.range, from: query.from, to: query.to });
  /** @type {import('page-types').ReadOf<'/portal/v1/apps/{appId}/overview'>} */
  const { data, error, loading } = useApi(`/apps/${appId}/overview`, q, [appId, JSON.stringify(q)]);
  return html`<div class="portal-overview">
    <p class="tabs ranges">
      Last:
      ${RANGES.map(
        (r) =>
          html`<a href=${`#/apps/${appId}/overview?range=${r}`} class=${(query.range ?? '24h') === r ? 'active' : ''}
            >${r}</a
          >`,
      )}
    </p>
    <${ErrorBox} error=${error} />
    ${
      loading && !data
        ? html`<p class="muted">Loading…</p>`
        : data
          ? html`<p class="muted window" data-from=${data.from} data-to=${data.to}>${data.from} to ${data.to}</p>
              <${OverviewCharts} data=${data} links=${portalLinks(appId)} />`
          : null
    }
  </div>`;
}
