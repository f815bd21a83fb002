// pages/peoplecommon.js - pieces shared by the people pages (one identity model, src/identity): their tabs, the roles,
// an account's status, its page, and the actions on an account (disable, reset password, reset authenticator) with
// their one-time secrets, the same for an operator and a studio developer.
import { api } from '/console/api.js';
import { SecondFactorOnce } from '/console/qr.js';
import { ConfirmButton, Details, ErrorBox, Field, SecretOnce, href, html, show, time, useAction } from '/console/ui.js';

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

/**
 * The account actions at `path` (an operator's or a studio developer's), each reading the account again after it
 * (`reload`): disable(run with true/false), resetPassword, resetTotp.
 */
export function useAccountActions(path, reload) {
  const after = (p) => p.then((r) => (reload(), r));
  return {
    after,
    disable: useAction((d) => after(api('PATCH', path, { body: { disabled: d } }))),
    resetPassword: useAction(() => after(api('POST', `${path}/reset-password`, { body: {} }))),
    resetTotp: useAction(() => after(api('POST', `${path}/reset-totp`))),
  };
}

/** The actions' errors and the new password or second factor, shown once. `extra`: the page's other actions. */
function AccountResults({ account, actions, extra = [] }) {
  const { disable, resetPassword, resetTotp } = actions;
  return html`${[...extra, disable, resetPassword, resetTotp].map((a) => html`<${ErrorBox} error=${a.error} />`)}
  ${resetPassword.result ? html`<${SecretOnce} label=${`New password of ${account.name}`} value=${resetPassword.result.password} />` : null}
  ${resetTotp.result ? html`<${SecondFactorOnce} who=${account.name} secondFactor=${resetTotp.result} />` : null}`;
}

/** Enable or disable (asking first), reset the password (a lock is lifted with it), reset the authenticator. */
function AccountButtons({ account, actions, disableQuestion }) {
  const { disable, resetPassword, resetTotp } = actions;
  const locked = account.lockedUntil && Date.parse(account.lockedUntil) > Date.now();
  return html`<p class="actions">
    ${
      account.disabled
        ? html`<button type="button" class="enable" onClick=${() => disable.run(false)}>Enable</button>`
        : html`<${ConfirmButton} label="Disable" question=${disableQuestion} onConfirm=${() => disable.run(true)} />`
    }
    <${ConfirmButton}
      label=${locked ? 'Unlock and reset password' : 'Reset password'}
      question="Generate a new password? Its sessions end, and a lock after failed sign-ins is lifted."
      confirmLabel="Yes, new password"
      onConfirm=${resetPassword.run}
      danger=${!locked}
    />
    <${ConfirmButton}
      label="Reset authenticator"
      question="Issue a new TOTP secret and recovery codes? The old ones and its sessions end."
      confirmLabel="Yes, reset it"
      onConfirm=${resetTotp.run}
    />
  </p>`;
}

/** A new person's name (an operator's or a studio developer's), as the identity model accepts it. */
export function PersonNameField({ label = 'Name', name, value, onInput }) {
  return html`<${Field}
    label=${label}
    name=${name}
    value=${value}
    onInput=${onInput}
    required
    minlength="2"
    maxlength="64"
    hint="Lower-case letters, digits, dot, dash, underscore. A password is generated and shown once."
  />`;
}

/** A form whose submit runs the page's action instead of navigating. */
export function ActionForm({ className, onSubmit, children }) {
  const submit = (e) => {
    e.preventDefault();
    onSubmit();
  };
  return html`<form class=${className} onSubmit=${submit}>${children}</form>`;
}

/** The two kinds of account of the people pages: where they are listed, and what their pages call them. */
const KINDS = {
  operator: {
    tab: 'operators',
    title: 'operator',
    heading: 'Operator',
    plural: 'operators',
    path: '/people/operators',
    list: '#/people',
    listLabel: 'All operators',
    created: 'Operator created',
    open: 'Open the operator',
    createdLabel: 'Created',
    disableQuestion: 'Disable this operator? Its sessions end and its tokens stop working.',
    save: { className: 'operator-role', buttonClass: 'save-role', label: 'Change role' },
  },
  developer: {
    tab: 'developers',
    title: 'studio developer',
    heading: 'Studio developer',
    plural: 'studio developers',
    path: '/people/developers',
    list: '#/people/developers',
    listLabel: 'All studio developers',
    created: 'Developer invited',
    open: 'Open the developer',
    createdLabel: 'Invited',
    neverSignedIn: 'never (invitation pending)',
    disableQuestion: 'Disable this developer? Its portal sessions end.',
    save: { className: 'developer-apps', buttonClass: 'save-apps', label: 'Save apps' },
  },
};

/** The useRecord page of an account of `kind` called `name`: its loading text and, when it fails, the way back. */
export function accountRecord(kind, name) {
  const k = KINDS[kind];
  return { what: k.title, title: `${k.heading} ${name}`, back: k.list, backLabel: k.listLabel };
}

/** A new account's one-time secrets (password, TOTP QR code, recovery codes); `children` say how to hand them over. */
export function AccountCreated({ kind, name, created, children }) {
  const k = KINDS[kind];
  return html`<section>
    <h1>${k.created}: ${name}</h1>
    <p class="muted">${children}</p>
    <${SecondFactorOnce} who=${name} secondFactor=${created.secondFactor} password=${created.password} />
    <p><a href=${href(`${k.path}/${name}`)}>${k.open}</a> · <a href=${k.list}>${k.listLabel}</a></p>
  </section>`;
}

/**
 * An account's page: its details, the results of its actions, and with operators.write its own field with the button
 * that saves it (`save`: { row (its line in the details), field, action, disabled, onSave }; a role, apps) and the
 * account actions; read only without. `children` go under them (an operator's tokens).
 */
export function AccountPage({ kind, account, actions, canWrite, save, children }) {
  const k = KINDS[kind];
  const signedIn = account.lastLoginAt || !k.neverSignedIn ? time(account.lastLoginAt) : k.neverSignedIn;
  const rows = [
    save.row,
    ['Status', accountStatus(account)],
    ['Last sign-in', signedIn],
    ['Recovery codes left', show(account.recoveryCodesLeft)],
    [k.createdLabel, time(account.createdAt)],
  ];
  return html`<section class=${`${kind}-detail`}>
    <h1>${account.name} <span class="muted">${k.title}</span></h1>
    <${PeopleTabs} active=${k.tab} />
    <${AccountResults} account=${account} actions=${actions} extra=${[save.action]} />
    <${Details} rows=${rows} />
    ${
      canWrite
        ? html`<${SaveField} ...${k.save} disabled=${save.disabled} onSave=${save.onSave}>${save.field}<//>
            <${AccountButtons} account=${account} actions=${actions} disableQuestion=${k.disableQuestion} />`
        : html`<p class="muted read-only">Read only: changing ${k.plural} needs the operators.write permission.</p>`
    }
    ${children}
    <p><a href=${k.list}>${k.listLabel}</a> · <a href="#/admin-actions">Audit trail</a></p>
  </section>`;
}

/** A field of an account (its role, its apps) with the button that saves it beside it. */
function SaveField({ className, buttonClass, label, disabled, onSave, children }) {
  return html`<div class="inline-fields ${className}">
    ${children}
    <div class="field">
      <label> </label>
      <button type="button" class=${buttonClass} disabled=${disabled} onClick=${onSave}>${label}</button>
    </div>
  </div>`;
}
