// @ts-check
// pages/consumption.js - in-game consumption notices (4.6) the games sent, newest first, by app and user, each with its forward to the partner URL.
import { BEFORE_PAGING, ListPage, href, html, show, time } from '/console/ui.js';

/** The game's timestamp (Unix seconds) as local time, with the number itself. */
const gameTime = (s) =>
  typeof s === 'number'
    ? html`${time(new Date(s * 1000).toISOString())} <small class="muted">${String(s)}</small>`
    : show(s);

/** The consumption notices, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/consumption-notices', 'notices'>} */
const NOTICES = {
  title: 'Consumption notices',
  intro: html`<p class="muted">
    Purchases games report made in the game (4.6), each forwarded to the app's partner URL through the outbox.
  </p>`,
  path: '/consumption-notices',
  rows: 'notices',
  rowKey: (n) => n.noticeId,
  what: 'consumption notices',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'appId', label: 'App id', inputmode: 'numeric', size: 6 },
    { name: 'userId', label: 'User id', size: 10 },
  ],
  columns: [
    { label: 'Notice', key: 'noticeId' },
    { label: 'Received', key: 'receivedAt', as: 'time' },
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
  ],
};

export function ConsumptionPage({ route }) {
  return html`<${ListPage} spec=${NOTICES} query=${route.query} at="/consumption" />`;
}
