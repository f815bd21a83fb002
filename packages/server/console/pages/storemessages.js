// @ts-check
// pages/storemessages.js - one app's store messages (docs/stores.md#operators): every notification the App Store and
// Google Play sent, verified or not, and every refund the reconciliation found, with its outcome; filtered by store
// and outcome, paged. The excerpt comes from a store (or a forger): it is shown as text.
import { appListHead } from '/console/kit/app-list.js';
import { BEFORE_PAGING, ListPage, href, html, show } from '/console/ui.js';

const STORES = ['', 'apple', 'google'];
const OUTCOMES = ['', 'applied', 'duplicate', 'ignored', 'refused'];
const OUTCOME_CLASS = { applied: 'ok', refused: 'bad' };

/** One app's store messages, declared for the kit's ListPage. */
/** @type {(appId: number | string) => import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/store-messages', 'messages'>} */
const storeMessages = (appId) => ({
  ...appListHead(appId, 'Store messages', 'store-messages', 'stores'),
  rows: 'messages',
  rowKey: (m) => m.messageId,
  empty: 'No store messages match.',
  cursor: BEFORE_PAGING,
  filters: [
    { name: 'store', label: 'Store', as: 'select', options: STORES },
    { name: 'outcome', label: 'Outcome', as: 'select', options: OUTCOMES },
  ],
  columns: [
    { label: 'Received', key: 'receivedAt', as: 'time' },
    { label: 'Store', key: 'store' },
    { label: 'Source', key: 'source' },
    { label: 'Type', key: 'type' },
    {
      label: 'Outcome',
      render: (m) => html`<span class=${`outcome ${OUTCOME_CLASS[m.outcome] ?? ''}`}>${m.outcome}</span>`,
    },
    { label: 'Reason', key: 'errorCode' },
    {
      label: 'trxNo',
      render: (m) => (m.trxNo === null ? show(null) : html`<a href=${href(`/orders/${m.trxNo}`)}>${m.trxNo}</a>`),
    },
    { label: 'Notification id', render: (m) => html`<span class="clip">${show(m.notificationId)}</span>` },
    { label: 'Excerpt', render: (m) => html`<span class="excerpt">${show(m.excerpt)}</span>` },
  ],
});

export function StoreMessagesPage({ appId, route }) {
  return html`<${ListPage} spec=${storeMessages(appId)} query=${route.query} at=${`/apps/${appId}/store-messages`} />`;
}
