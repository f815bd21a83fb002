// @ts-check
// pages/peoplecommon.js - pieces shared by the people pages (one identity model, src/identity): their tabs, the roles,
// an account's status, its page, and the actions on an account (disable, reset password, reset authenticator) with
// their one-time secrets, the same for an operator and a studio developer.
import { api } from '/console/api.js';
import { SecondFactorOnce } from '/console/qr.js';
import { ConfirmButton, CopyText, Details, ErrorBox, Field, href, html, show, time, useAction } from '/console/ui.js';

export const ROLES = ['admin', 'operator', 'moderator', 'support'];

/** The tabs of the people pages. */
export function PeopleTabs({ active }) {
  const tab = (key, path, label) => html`<a href=${href(path)} class=${active === key ? 'active' : ''}>${label}</a>`;
  return html`<nav class="tabs people-tabs">
    ${tab('operators', '/people', 'Operators')} ${tab('tokens', '/people/tokens', 'API tokens')}
    ${tab('developers', '/people/developers', 'Studio developers')}
    ${tab('invitations', '/people/invitations', 'Invitations')}
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
 * (`reload`): disable(run with true/false), reset (a link the person completes).
 */
export function useAccountActions(path, reload) {
  const after = (p) => p.then((r) => (reload(), r));
  return {
    after,
    disable: useAction((d) => after(api('PATCH', path, { body: { disabled: d } }))),
    reset: useAction(() => after(api('POST', `${path}/reset`, { body: {} }))),
  };
}

/**
 * An invitation or reset link just made (or resent): its link to copy and hand over, or where it was mailed. Never
 * the person's password or second factor: the person sets them with the link.
 */
export function InvitationIssued({ issued }) {
  const inv = issued.invitation;
  return html`<div class="invitation-issued" role="status">
    <p>
      ${inv.kind === 'reset' ? 'Reset link' : 'Invitation'} for <strong>${inv.name}</strong>, good once until
      ${time(inv.expiresAt)}.
    </p>
    ${
      issued.link
        ? html`<p>Hand this link to ${inv.name} only (over a safe channel):</p>
            <${CopyText} name="invitation-link" value=${issued.link} />`
        : issued.mail === 'sent'
          ? html`<p class="ok">Mailed to ${inv.email}.</p>`
          : html`<p class="bad">
              The mail to ${inv.email} failed: resend it from the invitations once the mail server answers.
            </p>`
    }
  </div>`;
}

/** The actions' errors and the reset link. `extra`: the page's other actions. */
function AccountResults({ actions, extra = [] }) {
  const { disable, reset } = actions;
  return html`${[...extra, disable, reset].map((a) => html`<${ErrorBox} error=${a.error} />`)}
  ${reset.result ? html`<${InvitationIssued} issued=${reset.result} />` : null}`;
}

/** Enable or disable (asking first), and a reset link (new password and second factor; a lock is lifted with it). */
function AccountButtons({ account, actions, disableQuestion }) {
  const { disable, reset } = actions;
  const locked = account.lockedUntil && Date.parse(account.lockedUntil) > Date.now();
  return html`<p class="actions">
    ${
      account.disabled
        ? html`<button type="button" class="enable" onClick=${() => disable.run(false)}>Enable</button>`
        : html`<${ConfirmButton} label="Disable" question=${disableQuestion} onConfirm=${() => disable.run(true)} />`
    }
    <${ConfirmButton}
      label=${locked ? 'Unlock with a reset link' : 'Reset link'}
      question="Make a reset link? With it the person sets a new password and second factor (the old ones, its passkeys and sessions end then; a lock is lifted)."
      confirmLabel="Yes, make the link"
      onConfirm=${reset.run}
      danger=${!locked}
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
    hint="Lower-case letters, digits, dot, dash, underscore."
  />`;
}

/** Where an invitation link may be mailed (with SMTP_URL on the service); empty: the console shows the link. */
export function EmailField({ name, value, onInput }) {
  return html`<${Field}
    label="E-mail (optional)"
    name=${name}
    type="email"
    value=${value}
    onInput=${onInput}
    maxlength="254"
    hint="With the service's SMTP_URL set, the link goes there instead of being shown here."
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

/**
 * A new account: its invitation link (or where it was mailed); the first admin's one-time secrets (password, TOTP QR
 * code, recovery codes) instead. `children` say how to hand them over.
 */
export function AccountCreated({ kind, name, created, children }) {
  const k = KINDS[kind];
  return html`<section>
    <h1>${k.created}: ${name}</h1>
    ${
      created.invitation
        ? html`<${InvitationIssued} issued=${created} />`
        : html`<p class="muted">${children}</p>
            <${SecondFactorOnce} who=${name} secondFactor=${created.secondFactor} password=${created.password} />`
    }
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
    <${AccountResults} actions=${actions} extra=${[save.action]} />
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
