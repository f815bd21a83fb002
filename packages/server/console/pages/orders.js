// @ts-check
// pages/orders.js - orders: search list with paging, detail (status history, refunds, supplement, notifications) with cancel; supplements list.
import { api } from '/console/api.js';
import {
  BEFORE_PAGING,
  ActionStatus,
  ConfirmButton,
  Details,
  ListPage,
  Table,
  href,
  html,
  show,
  time,
  useAction,
  useApi,
  usePermission,
  useRecord,
} from '/console/ui.js';
import { REFUND_COLUMNS, RefundForm } from '/console/kit/refund-form.js';

const CANCELLABLE = new Set([1, 2]); // created, awaiting payment

/** Order statuses (2.7), named as the API names them in `statusName`. */
const STATUS_NAMES = { 0: 'succeeded', 1: 'created', 2: 'awaiting payment', 3: 'failed', 4: 'cancelled' };
/** Order types (`trxType`). */
const TRX_TYPES = ['payment', 'supplement', 'refund'];
const statusName = (s) => STATUS_NAMES[s] ?? `status ${s}`;
const statusText = (s) => html`<span class=${`order-${statusName(s)}`}>${statusName(s)}</span>`;

/** The order's status history (oldest first), when the API gives it. */
function StatusHistory({ history }) {
  if (!Array.isArray(history)) return null;
  return html`<h2>Status history</h2>
    <${Table}
      rows=${history}
      empty="No status history recorded for this order."
      columns=${[
        { label: 'When', key: 'at', as: 'time' },
        {
          label: 'From',
          render: (h) =>
            h.fromStatus === null || h.fromStatus === undefined
              ? html`<span class="muted">(created)</span>`
              : statusText(h.fromStatus),
        },
        { label: 'To', render: (h) => statusText(h.status) },
        { label: 'Reason', key: 'reason' },
      ]}
    />`;
}

const money = (amount, currency) => `${amount} ${currency}`;

/** The order search, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/orders', 'orders'>} */
const ORDER_LIST = {
  title: 'Orders',
  path: '/orders',
  rows: 'orders',
  rowKey: (o) => o.trxNo,
  rowLink: (o) => href(`/orders/${o.trxNo}`),
  what: 'orders',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'appId', label: 'App id', size: 6 },
    { name: 'trxNo', label: 'trxNo', size: 12 },
    { name: 'outTrxNo', label: 'outTrxNo' },
    { name: 'userId', label: 'User id', size: 10 },
    { name: 'roleId', label: 'Role id' },
    { name: 'status', label: 'Status', as: 'select', options: [['', '(any)'], ...Object.entries(STATUS_NAMES)] },
    {
      name: 'trxType',
      label: 'Type',
      as: 'select',
      options: [['', '(any)'], ...TRX_TYPES.map((t, i) => [String(i), t])],
    },
    { name: 'from', label: 'Created from', size: 20, placeholder: '2026-11-01T00:00:00Z' },
    { name: 'to', label: 'Created before', size: 20 },
  ],
  columns: [
    { label: 'trxNo', key: 'trxNo' },
    { label: 'Created', key: 'createdAt', as: 'time' },
    { label: 'App', key: 'appId' },
    { label: 'User', render: (o) => html`<a href=${href(`/users/${o.userId}`)}>${o.userId}</a>` },
    { label: 'Status', render: (o) => html`<span class=${`order-${o.statusName}`}>${o.statusName}</span>` },
    { label: 'Amount', render: (o) => money(o.totalAmount, o.currency) },
    { label: 'Origin', key: 'origin' },
    { label: 'outTrxNo', key: 'outTrxNo' },
  ],
};

function OrderDetail({ trxNo }) {
  const path = `/orders/${encodeURIComponent(trxNo)}`;
  const page = { what: 'order', title: `Order ${trxNo}`, back: '#/orders', backLabel: 'All orders' };
  /** @type {import('page-types').RecordOf<'/admin/v1/orders/{trxNo}'>} */
  const { data, reload, placeholder } = useRecord(path, {}, [trxNo], page);
  const body = { reason: 'cancelled in the operator console' };
  const cancel = useAction(() => api('POST', `${path}/cancel`, { body }), reload);
  /** @type {import('page-types').ReadOf<'/admin/v1/orders/{trxNo}/refunds'>} */
  const asked = useApi('GET', `${path}/refunds`, {}, [trxNo]);
  const mayRefund = usePermission('orders.refund');
  if (placeholder) return placeholder;
  const { order: o, refund, supplement, notifications, refunds = [], webRefunds = [], refundedAmount = 0 } = data;
  return html`<section>
    <h1>Order ${o.trxNo} <span class=${`order-${o.statusName}`}>${o.statusName}</span></h1>
    <${ActionStatus} action=${cancel} done=${() => 'Order cancelled.'} />
    ${CANCELLABLE.has(o.status) ? html`<p class="actions"><${ConfirmButton} label="Cancel order" question="Cancel this order? The player can no longer pay it." onConfirm=${cancel.run} /></p>` : null}
    <${Details}
      rows=${[
        ['App', html`<a href=${href(`/apps/${o.appId}`)}>${o.appId}</a>`],
        ['User', html`<a href=${href(`/users/${o.userId}`)}>${o.userId}</a>`],
        ['Type', TRX_TYPES[o.trxType] ?? String(o.trxType)],
        ['outTrxNo', show(o.outTrxNo)],
        [
          'Original trxNo',
          o.originalTrxNo ? html`<a href=${href(`/orders/${o.originalTrxNo}`)}>${o.originalTrxNo}</a>` : show(null),
        ],
        [
          'Products',
          html`<ul>
            ${o.products.map((p) => html`<li>${JSON.stringify(p)}</li>`)}
          </ul>`,
        ],
        ['Amount', money(o.totalAmount, o.currency)],
        ['Platform / channel / payment type', `${o.platform} / ${o.channel} / ${o.paymentType}`],
        ['Region', show(o.region)],
        ['Client paid', o.clientAmount === null ? show(null) : money(o.clientAmount, o.clientCurrency)],
        ['Bank trxNo', show(o.bankTrxNo)],
        ['Attach', show(o.attach)],
        ['Origin', o.origin],
        ['Created', time(o.createdAt)],
        [
          'Succeeded',
          o.successTime ? time(new Date(o.successTime * (o.successTime < 1e12 ? 1000 : 1)).toISOString()) : show(null),
        ],
        ['Failure', show(o.failureReason)],
        [
          'Refund',
          refunds.length > 1 || webRefunds.length > 0
            ? html`<ul class="refunds">
                ${refunds.map((r) => {
                  const web = webRefunds.find((w) => w.refundTrxNo === r.trxNo);
                  return html`<li>
                    <a href=${href(`/orders/${r.trxNo}`)}>${r.trxNo}</a> ${money(r.totalAmount, r.currency)}${
                      web ? ` (${web.kind === 'dispute_lost' ? 'dispute lost' : 'refund'} at ${web.provider})` : ''
                    }
                  </li>`;
                })}
              </ul>`
            : refund
              ? html`<a href=${href(`/orders/${refund.trxNo}`)}>${refund.trxNo}</a> (${refund.statusName})`
              : show(null),
        ],
        ['Refunded at the provider', refundedAmount > 0 ? money(refundedAmount, o.currency) : show(null)],
        [
          'Supplement',
          supplement
            ? `${supplement.tradeNo}: ${supplement.supplyStatus === 1 ? 'pending' : 'supplemented'}, ${money(supplement.refundAmount, supplement.currency)}`
            : show(null),
        ],
      ]}
    />
    <${StatusHistory} history=${data.statusHistory} />
    ${
      asked.data?.webOrder
        ? html`<section class="refund-requests">
            <h2>Refunds through ${asked.data.provider}</h2>
            <${Table}
              rowKey=${(r) => r.refundRequestId}
              rows=${asked.data.refunds}
              empty="No refunds asked."
              columns=${REFUND_COLUMNS}
            />
            ${
              mayRefund && o.trxType === 0 && o.status === 0
                ? html`<${RefundForm}
                    call=${(b) => api('POST', `${path}/refunds`, { body: b })}
                    currency=${o.currency}
                    onDone=${() => {
                      asked.reload();
                      reload();
                    }}
                  />`
                : null
            }
          </section>`
        : null
    }
    <h2>Notifications to the game</h2>
    <${Table}
      rowKey=${(n) => n.notifyId}
      rows=${notifications}
      empty="No notifications."
      columns=${[
        { label: 'Event', render: (n) => html`<a href=${href(`/events/${n.notifyId}`)}>${n.notifyId}</a>` },
        { label: 'Type', key: 'type' },
        { label: 'State', key: 'state' },
        { label: 'Attempts', key: 'attempts' },
        { label: 'Created', key: 'createdAt', as: 'time' },
        { label: 'Delivered', key: 'deliveredAt', as: 'time' },
        { label: 'Last error', key: 'lastError' },
      ]}
    />
  </section>`;
}

/** The supplement orders, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/supplements', 'supplements'>} */
const SUPPLEMENT_LIST = {
  title: 'Supplement orders',
  path: '/supplements',
  rows: 'supplements',
  rowKey: (s) => s.tradeNo,
  empty: 'No supplements.',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'appId', label: 'App id', size: 6 },
    { name: 'userId', label: 'User id', size: 10 },
    {
      name: 'status',
      label: 'Status',
      as: 'select',
      options: [
        ['', 'pending'],
        ['supplemented', 'supplemented'],
        ['all', 'all'],
      ],
    },
  ],
  columns: [
    { label: 'Trade', key: 'tradeNo' },
    { label: 'App', key: 'appId' },
    { label: 'User', render: (s) => html`<a href=${href(`/users/${s.userId}`)}>${s.userId}</a>` },
    {
      label: 'Original order',
      render: (s) => html`<a href=${href(`/orders/${s.originalTrxNo}`)}>${s.originalTrxNo}</a>`,
    },
    { label: 'Product', key: 'productId' },
    { label: 'Refunded', render: (s) => money(s.refundAmount, s.currency) },
    { label: 'Status', render: (s) => (s.supplyStatus === 1 ? 'pending' : 'supplemented') },
    { label: 'Created', key: 'createdAt', as: 'time' },
  ],
};

export function OrdersPage({ route }) {
  const [section, id] = route.segments;
  if (section === 'supplements')
    return html`<${ListPage} spec=${SUPPLEMENT_LIST} query=${route.query} at="/supplements" />`;
  if (id) return html`<${OrderDetail} trxNo=${id} />`;
  return html`<${ListPage} spec=${ORDER_LIST} query=${route.query} at="/orders" />`;
}
