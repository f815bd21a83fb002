// @ts-check
// ui.js - shared pieces: the html tag (Preact through htm: text is always escaped, there is no raw-HTML path).
import { h } from '/pay/assets/vendor/preact.module.js';
import htm from '/pay/assets/vendor/htm.module.js';

export const html = htm.bind(h);

/** An error or notice box; role=alert so screen readers announce it. */
export const Notice = ({ id, kind = 'error', text }) =>
  text ? html`<p id=${id} class=${`notice ${kind}`} role="alert">${text}</p>` : null;

/** The role the page pays for: name, avatar (an http(s) URL only), level, server. */
export function RoleCard({ lang, role, t, servers = [] }) {
  // The game's name of the server, else the name the operator gave it (web-pay settings), else its id.
  const server = role.serverName || servers.find((s) => s.serverId === role.serverId)?.name || role.serverId;
  const avatar = /^https?:\/\//i.test(role.avatar || '') ? role.avatar : null;
  return html`<section id="role-card" class="card role" aria-label=${t(lang, 'role')}>
    ${avatar ? html`<img class="avatar" src=${avatar} alt="" referrerpolicy="no-referrer" width="48" height="48" />` : null}
    <div>
      <div id="role-name" class="role-name">${role.name || role.roleId}</div>
      <div class="muted">
        ${role.roleLv !== null && role.roleLv !== undefined ? html`<span>${t(lang, 'level')} ${role.roleLv} · </span>` : null}
        <span id="role-server">${t(lang, 'server')} ${server}</span>
      </div>
    </div>
  </section>`;
}
