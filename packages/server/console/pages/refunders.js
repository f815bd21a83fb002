// @ts-check
// pages/refunders.js - refund abuse in sight (docs/console.md): an app's players with the most refunds in a window,
// each with what they had refunded per currency, the supplements they owe now (4.5) and their last refund, linking
// to their orders; paged by cursor, the window pinned while paging.
import { appListHead } from '/console/kit/app-list.js';
import { REFUNDER_ROWS } from '/console/kit/refunders.js';
import { ListPage, href, html, show, time } from '/console/ui.js';

const amounts = (refunded) => refunded.map((a) => `${a.amount} ${a.currency}`).join(' + ');

/**
 * One app's refunders, declared for the kit's ListPage.
 * @param {number | string} appId
 * @returns {import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/refund-abuse', 'refunders'>}
 */
function refunders(appId) {
  const head = appListHead(appId, 'Refund abuse', 'refund-abuse', 'orders');
  return {
    ...head,
    sectionClass: 'refunders',
    intro: html`${head.intro}
      <p class="muted">
        The players of this app with the most refunds in the window (default: the last 30 days), store and web, most
        refunds first, then the larger amount. Of them, web refunds were made at a payment provider and disputes lost
        are chargebacks of web payments. Pending supplements are what each owes the app now (4.5). The app's order
        settings can refuse new store orders of a player who owes a supplement.
      </p>`,
    ...REFUNDER_ROWS,
    summary: (data) =>
      html`<p class="window muted">
        ${time(data.from)} to ${time(data.to)}${data.currency ? `, in ${data.currency}` : ''}
      </p>`,
    filters: [
      { name: 'from', label: 'Refunds from', size: 20, placeholder: '2026-11-01T00:00:00Z' },
      { name: 'to', label: 'Refunds before', size: 20 },
      { name: 'currency', label: 'Currency', size: 4, placeholder: 'USD' },
    ],
    columns: [
      {
        label: 'Player',
        render: (r) =>
          html`<a class="player-orders" href=${href('/orders', { appId, userId: r.userId })}>${r.userId}</a>`,
      },
      {
        label: 'Refunds',
        render: (r) =>
          html`<a class="refund-orders" href=${href('/orders', { appId, userId: r.userId, trxType: 2 })}
            >${String(r.refunds)}</a
          >`,
      },
      { label: 'Web refunds / disputes lost', render: (r) => `${r.webRefunds} / ${r.disputesLost}` },
      { label: 'Refunded', render: (r) => amounts(r.refunded) },
      {
        label: 'Pending supplements',
        render: (r) =>
          r.pendingSupplements > 0
            ? html`<a class="supplements" href=${href('/supplements', { appId, userId: r.userId })}
                >${String(r.pendingSupplements)}</a
              >`
            : show(0),
      },
      { label: 'Last refund', key: 'lastRefundAt', as: 'time' },
    ],
  };
}

export function RefundersPage({ appId, route }) {
  return html`<${ListPage} spec=${refunders(appId)} query=${route.query} at=${`/apps/${appId}/refunders`} />`;
}
