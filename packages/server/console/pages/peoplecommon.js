// pages/peoplecommon.js - pieces shared by the people pages: their tabs, the roles, an account's status.
import { href, html, time } from '/console/ui.js';

export const ROLES = ['admin', 'operator', 'moderator', 'support'];

/** The tabs of the people pages. */
export function PeopleTabs({ active }) {
  const tab = (key, path, label) => html`<a href=${href(path)} class=${active === key ? 'active' : ''}>${label}</a>`;
  return html`<nav class="tabs people-tabs">
    ${tab('operators', '/people', 'Operators')} ${tab('tokens', '/people/tokens', 'API tokens')}
    ${tab('developers', '/people/developers', 'Studio developers')}
  </nav>`;
}

/** Disabled, locked until a time, or active. */
export function accountStatus(a) {
  if (a.disabled) return html`<span class="bad">disabled</span>`;
  if (a.lockedUntil && Date.parse(a.lockedUntil) > Date.now())
    return html`<span class="bad">locked until ${time(a.lockedUntil)}</span>`;
  return html`<span class="ok">active</span>`;
}
