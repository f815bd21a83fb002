// @ts-check
// role.js - the official page's role step: overseas (server + typed role id, 4.8) and mainland (login, server,
// role list 4.9).
import { useState } from '/pay/assets/vendor/hooks.module.js';
import { api } from '/pay/assets/api.js';
import { errorText, t } from '/pay/assets/i18n.js';
import { Notice, html } from '/pay/assets/ui.js';

function ServerField({ lang, ctx, value, onInput }) {
  if (ctx.servers.length === 0)
    return html`<label
      >${t(lang, 'serverId')}
      <input id="f-server" required maxlength="128" value=${value} onInput=${(e) => onInput(e.currentTarget.value)} />
    </label>`;
  return html`<label
    >${t(lang, 'pickServer')}
    <select id="f-server" required value=${value} onChange=${(e) => onInput(e.currentTarget.value)}>
      <option value="">${t(lang, 'pickServer')}</option>
      ${ctx.servers.map((s) => html`<option value=${s.serverId}>${s.name}</option>`)}
    </select>
  </label>`;
}

/** Overseas: the player picks a server and types a role id; the role query checks it. */
/** @param {{ lang: string, ctx: import('/pay/assets/api.js').Context, onRole: (role: import('/pay/assets/api.js').Context['role']) => void }} props */
export function OverseasRole({ lang, ctx, onRole }) {
  const [serverId, setServerId] = useState('');
  const [roleId, setRoleId] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {any} */ (null));
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onRole((await api('POST', '/role', { serverId, roleId: roleId.trim() })).role);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<form id="role-form" class="card" onSubmit=${submit} aria-busy=${busy ? 'true' : 'false'}>
    <${ServerField} lang=${lang} ctx=${ctx} value=${serverId} onInput=${setServerId} />
    <label
      >${t(lang, 'roleId')}
      <input
        id="f-role"
        required
        maxlength="128"
        autocomplete="off"
        value=${roleId}
        onInput=${(e) => setRoleId(e.currentTarget.value)}
      />
    </label>
    <button id="btn-check-role" type="submit" disabled=${busy}>
      ${busy ? t(lang, 'paying') : t(lang, 'checkRole')}
    </button>
    <${Notice} id="role-error" text=${error ? errorText(lang, error) : null} />
  </form>`;
}

/** Mainland: log in, pick a server, pick one of the roles the game lists (4.9). */
/** @param {{ lang: string, ctx: import('/pay/assets/api.js').Context, onLogin: () => void, onRole: (role: import('/pay/assets/api.js').Context['role']) => void }} props */
export function MainlandRole({ lang, ctx, onLogin, onRole }) {
  const [credential, setCredential] = useState('');
  const [serverId, setServerId] = useState('');
  const [roles, setRoles] = useState(/** @type {import('/pay/assets/api.js').Roles | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {any} */ (null));
  // Kept as answered, put into words at render (follows the language switch).
  const shown = (err) => (!err ? null : err.code === 40411 ? t(lang, 'noRole') : errorText(lang, err));
  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!ctx.loggedIn) {
    if (ctx.loginProviders.length === 0) return html`<p class="card">${t(lang, 'noLogin')}</p>`;
    const login = (e) => {
      e.preventDefault();
      void run(async () => {
        await api('POST', '/login', { provider: ctx.loginProviders[0], credential: credential.trim() });
        onLogin();
      });
    };
    return html`<form id="login-form" class="card" onSubmit=${login} aria-busy=${busy ? 'true' : 'false'}>
      <p class="muted">${t(lang, 'loginProvider')}: ${ctx.loginProviders[0]}</p>
      <label
        >${t(lang, 'credential')}
        <textarea
          id="f-credential"
          required
          rows="3"
          value=${credential}
          onInput=${(e) => setCredential(e.currentTarget.value)}
        ></textarea>
      </label>
      <button id="btn-login" type="submit" disabled=${busy}>${t(lang, 'login')}</button>
      <${Notice} id="role-error" text=${shown(error)} />
    </form>`;
  }
  const list = (e) => {
    e.preventDefault();
    setRoles(null);
    void run(async () => setRoles((await api('GET', `/roles?serverId=${encodeURIComponent(serverId)}`)).roles));
  };
  const pick = (role) => run(async () => onRole((await api('POST', '/role', { serverId, roleId: role.roleId })).role));
  return html`<div class="card" aria-busy=${busy ? 'true' : 'false'}>
    <form id="server-form" onSubmit=${list}>
      <${ServerField} lang=${lang} ctx=${ctx} value=${serverId} onInput=${setServerId} />
      <button id="btn-roles" type="submit" disabled=${busy}>${t(lang, 'showRoles')}</button>
    </form>
    ${
      roles && roles.length > 0
        ? html`<div id="role-list" role="group" aria-label=${t(lang, 'pickRole')}>
            <p>${t(lang, 'pickRole')}</p>
            ${roles.map(
              (r) =>
                html`<button
                  type="button"
                  class="role-choice"
                  data-role=${r.roleId}
                  disabled=${busy}
                  onClick=${() => pick(r)}
                >
                  ${r.name || r.roleId}${r.roleLv !== null ? ` · ${t(lang, 'level')} ${r.roleLv}` : ''}
                </button>`,
            )}
          </div>`
        : null
    }
    <${Notice} id="role-error" text=${shown(error)} />
  </div>`;
}
