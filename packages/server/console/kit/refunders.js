// @ts-check
// kit/refunders.js - the refund-abuse list (GET .../apps/{appId}/refund-abuse) as both the console and the studio
// portal read it: a row per player, paged by cursor with the answer's window held while paging.
/** @type {Pick<import('/console/kit/list.js').ListSpec<'/admin/v1/apps/{appId}/refund-abuse', 'refunders'>, 'rows' | 'rowKey' | 'what' | 'empty' | 'cursor'>} */
export const REFUNDER_ROWS = {
  rows: 'refunders',
  rowKey: (r) => r.userId,
  what: 'refunders',
  empty: 'No refunds in this window.',
  cursor: { next: 'nextCursor', param: 'cursor', pin: (data) => ({ from: data.from, to: data.to }) },
};
