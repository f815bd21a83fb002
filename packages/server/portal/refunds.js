// @ts-check
// refunds.js - refund abuse in sight for a studio (docs/portal.md): its app's players with the most store refunds in
// a window (count, amount per currency, supplements owed now, last refund), each linking to that player's orders of
// the app, a read-only list. Everything shown comes from the API as text.
import { useState } from '/console/vendor/hooks.module.js';
import { REFUNDER_ROWS } from '/console/kit/refunders.js';
import { RefundForm } from '/console/kit/refund-form.js';
import { api, queryString, session } from '/portal/api.js';
import { BEFORE_PAGING, ListPage, html, time } from '/portal/ui.js';

const TRX_TYPES = ['payment', 'supplement', 'refund'];
const money = (amount, currency) => `${amount} ${currency}`;
const playerHref = (appId, userId) => `#/apps/${appId}/player-orders${queryString({ userId })}`;

/** The app's refunders, declared for the kit's ListPage; the filters and the cursor live in the hash. */
/** @type {(appId: number | string) => import('/console/kit/list.js').ListSpec<'/portal/v1/apps/{appId}/refund-abuse', 'refunders'>} */
const refunders = (appId) => ({
  sectionClass: 'refunders',
  intro: html`<p class="muted">
    The players of this app with the most refunds (store and web) in the window (default: the last 30 days), most
    refunds first, then the larger amount. Pending supplements are what each player owes now (4.5).
  </p>`,
  path: `/apps/${appId}/refund-abuse`,
  ...REFUNDER_ROWS,
  rowAttrs: (r) => ({ 'data-user': r.userId }),
  className: 'refunders',
  keep: [],
  summary: (data) =>
    html`<p class="muted window">
      ${time(data.from)} to ${time(data.to)}${data.currency ? `, in ${data.currency}` : ''}
    </p>`,
  filters: [
    { name: 'from', label: 'Refunds from', placeholder: '2026-11-01T00:00:00Z' },
    { name: 'to', label: 'Refunds before' },
    { name: 'currency', label: 'Currency', placeholder: 'USD' },
  ],
  columns: [
    {
      label: 'Player',
      render: (r) => html`<a class="player-orders" href=${playerHref(appId, r.userId)}>${r.userId}</a>`,
    },
    { label: 'Refunds', render: (r) => String(r.refunds) },
    { label: 'Web refunds / disputes lost', render: (r) => `${r.webRefunds} / ${r.disputesLost}` },
    { label: 'Refunded', render: (r) => r.refunded.map((a) => money(a.amount, a.currency)).join(' + ') },
    { label: 'Pending supplements', render: (r) => String(r.pendingSupplements) },
    { label: 'Last refund', render: (r) => time(r.lastRefundAt) },
  ],
});

/**
 * A player's orders of the app, declared for the kit's ListPage; `onRefund(order)` opens the refund form (null: the
 * developer may not refund this app's orders, and no button is shown).
 */
/** @type {(appId: number | string, userId: string | undefined, onRefund: ((order: import('page-types').ListRow<'/portal/v1/apps/{appId}/orders', 'orders'>) => void) | null) => import('/console/kit/list.js').ListSpec<'/portal/v1/apps/{appId}/orders', 'orders'>} */
const playerOrders = (appId, userId, onRefund) => ({
  sectionClass: 'player-orders',
  intro: html`<p><a href=${`#/apps/${appId}/refunds`}>Back to refund abuse</a></p>`,
  // The heading comes with the rows, so that a page showing it shows them too.
  summary: () => html`<h2>Orders of player ${userId ?? ''}</h2>`,
  path: `/apps/${appId}/orders`,
  rows: 'orders',
  rowKey: (o) => o.trxNo,
  rowAttrs: (o) => ({ 'data-trx': String(o.trxNo) }),
  fixed: { limit: 50 },
  className: 'orders',
  what: 'orders',
  empty: 'This player has no orders in this app.',
  cursor: BEFORE_PAGING,
  columns: [
    { label: 'trxNo', render: (o) => String(o.trxNo) },
    { label: 'Type', render: (o) => TRX_TYPES[o.trxType] ?? String(o.trxType) },
    { label: 'Status', key: 'statusName' },
    { label: 'Amount', render: (o) => money(o.totalAmount, o.currency) },
    { label: 'Channel', render: (o) => String(o.channel) },
    { label: 'Original trxNo', render: (o) => (o.originalTrxNo === null ? '—' : String(o.originalTrxNo)) },
    { label: 'outTrxNo', render: (o) => o.outTrxNo ?? '—' },
    { label: 'Created', render: (o) => time(o.createdAt) },
    {
      label: '',
      // A paid payment may be refunded through its provider when the developer's access allows (else 403, shown).
      render: (o) =>
        onRefund && o.trxType === 0 && o.status === 0
          ? html`<button type="button" class="refund-open" onClick=${() => onRefund(o)}>Refund…</button>`
          : '',
    },
  ],
});

export function Refunders({ appId, query }) {
  const q = { from: query.from, to: query.to, currency: query.currency, cursor: query.cursor };
  return html`<${ListPage}
    spec=${refunders(appId)}
    query=${q}
    onQuery=${(next) => (location.hash = `#/apps/${appId}/refunds${queryString(next)}`)}
  />`;
}

export function PlayerOrders({ appId, userId, before }) {
  const [refunding, setRefunding] = useState(
    /** @type {import('page-types').Answer<'/portal/v1/apps/{appId}/orders'>['orders'][number] | null} */ (null),
  );
  const [shown, setShown] = useState(0);
  return html`${
      refunding
        ? html`<section class="refund" data-trx=${String(refunding.trxNo)}>
            <p>
              Order ${refunding.trxNo}: ${money(refunding.totalAmount, refunding.currency)}
              <button type="button" class="refund-close" onClick=${() => setRefunding(null)}>Close</button>
            </p>
            <${RefundForm}
              call=${(body) => api('POST', `/apps/${appId}/orders/${refunding.trxNo}/refunds`, { body })}
              currency=${refunding.currency}
              onDone=${() => setShown(shown + 1)}
            />
          </section>`
        : null
    }
    <${ListPage}
      key=${shown}
      spec=${playerOrders(appId, userId, session.refundAppIds().includes(Number(appId)) ? setRefunding : null)}
      query=${{ userId, before }}
      onQuery=${(next) => (location.hash = `#/apps/${appId}/player-orders${queryString(next)}`)}
    />`;
}
