// @ts-check
// kit/app-list.js - the head of a console list of one app's records (its game calls, store messages, refunders):
// a title naming the app, a way back to the app, and the API path under the app.
import { href, html } from '/console/kit/ui.js';

/**
 * { title, intro, path } of the ListPage spec of app `appId`'s `records` (the path under /apps/{appId}/); the way back
 * leads to the app page's `tab` (its address: #/apps/{appId}/{tab}) where the list belongs.
 */
export function appListHead(appId, title, records, tab = 'overview') {
  return {
    title: html`${title} <span class="muted">app ${appId}</span>`,
    intro: html`<p><a href=${href(`/apps/${appId}/${tab}`)}>Back to the app</a></p>`,
    path: `/apps/${encodeURIComponent(appId)}/${records}`,
  };
}
