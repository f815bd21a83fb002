// @ts-check
// pages/users.js - users: search by user id, user code, open id or email; detail with login methods, sessions and bans; revoke tokens, ban, unban.
import { useState } from '/console/vendor/hooks.module.js';
import { api, session } from '/console/api.js';
import {
  ActionStatus,
  boundFields,
  ConfirmButton,
  Details,
  ErrorBox,
  ListPage,
  Table,
  href,
  html,
  navigate,
  show,
  time,
  useAction,
  useRecord,
} from '/console/ui.js';

const KEYS = [
  ['userId', 'User id'],
  ['userCode', 'User code'],
  ['openId', 'Open id'],
  ['email', 'Email'],
];

function UserSearch({ query }) {
  const by = KEYS.find(([k]) => query[k])?.[0] ?? 'userId';
  const [form, setForm] = useState({ by, value: query[by] ?? '', loginType: query.loginType ?? '' });
  const field = boundFields(form, setForm);
  const searching = KEYS.some(([k]) => query[k]);
  const submit = (e) => {
    e.preventDefault();
    navigate('/users', {
      [form.by]: form.value.trim(),
      ...(form.by === 'openId' ? { loginType: form.loginType } : {}),
    });
  };
  return html`<section>
    <h1>Users</h1>
    <form class="filters" onSubmit=${submit}>
      ${field('by', { label: 'Find by', as: 'select', options: KEYS })}
      ${field('value', { label: 'Value', required: true })}
      ${form.by === 'openId' ? field('loginType', { label: 'Login type (optional)', size: '4' }) : null}
      <div class="field"><label> </label><button type="submit">Search</button></div>
    </form>
    ${searching ? html`<${ListPage} spec=${USER_LIST} query=${query} />` : html`<p class="muted">Search for a user by exactly one key.</p>`}
  </section>`;
}

/** The users matching one key, declared for the kit's ListPage (the search form above picks the key). */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/users', 'users'>} */
const USER_LIST = {
  path: '/users',
  rows: 'users',
  rowKey: (u) => u.userId,
  rowLink: (u) => href(`/users/${u.userId}`),
  what: 'users',
  empty: 'No user matches.',
  columns: [
    { label: 'User id', key: 'userId' },
    { label: 'User code', key: 'userCode' },
    { label: 'Username', key: 'username' },
    { label: 'Status', key: 'status' },
    { label: 'Banned', render: (u) => (u.banned ? html`<span class="bad">banned</span>` : 'no') },
    { label: 'Guest', render: (u) => (u.isGuest ? 'yes' : 'no') },
    { label: 'Registered', key: 'registTime', as: 'time' },
  ],
};

function BanForm({ userId, onDone }) {
  // Keys are the fields' names (the page's selectors).
  const [form, setForm] = useState({ banReason: '', banPermanent: true, banUntil: '' });
  const field = boundFields(form, setForm);
  const ban = useAction(() => {
    const until = form.banPermanent ? null : new Date(form.banUntil).toISOString();
    return api('POST', `/users/${userId}/ban`, { body: { reason: form.banReason, until, actor: session.moderator() } });
  }, onDone);
  const ready = form.banReason.trim() && (form.banPermanent || form.banUntil);
  return html`<form class="stacked" onSubmit=${(e) => e.preventDefault()}>
    <h2>Ban this user</h2>
    <${ErrorBox} error=${ban.error} />
    ${field('banReason', { label: 'Reason', maxlength: '500' })}
    ${field('banPermanent', { label: 'Permanent (until lifted)', type: 'checkbox' })}
    ${form.banPermanent ? null : field('banUntil', { label: 'Ban ends', type: 'datetime-local' })}
    <${ConfirmButton}
      label="Ban user"
      disabled=${!ready || ban.busy}
      question="Ban this user? Their tokens are revoked at once and logins refused."
      onConfirm=${ban.run}
    />
  </form>`;
}

/** The tables of a user's page: its login methods, sessions and bans. */
const LOGIN_METHODS = [
  { label: 'Provider', key: 'provider' },
  { label: 'Type', key: 'loginType' },
  { label: 'Open id', key: 'openId' },
  { label: 'Nickname', key: 'nickname' },
  { label: 'Email', key: 'email' },
  { label: 'Last login', key: 'lastLoginAt', as: 'time' },
];
const SESSIONS = [
  { label: 'Token', key: 'tokenId' },
  { label: 'App', key: 'appId' },
  { label: 'Login type', key: 'loginType' },
  { label: 'IP', key: 'issuedIp' },
  { label: 'Created', key: 'createdAt', as: 'time' },
  { label: 'Expires', key: 'expiresAt', as: 'time' },
  { label: 'State', render: (s) => (s.live ? html`<span class="ok">live</span>` : `revoked ${s.revokeReason ?? ''}`) },
];
const BANS = [
  { label: 'Reason', key: 'reason' },
  { label: 'Until', render: (b) => (b.until ? time(b.until) : 'until lifted') },
  { label: 'By', key: 'actor' },
  { label: 'At', key: 'createdAt', as: 'time' },
  { label: 'Lifted', render: (b) => (b.liftedAt ? html`${time(b.liftedAt)} by ${b.liftedBy}` : show(null)) },
];

function UserDetail({ userId }) {
  const path = `/users/${encodeURIComponent(userId)}`;
  const page = { what: 'user', title: `User ${userId}`, back: '#/users', backLabel: 'Search users' };
  /** @type {import('page-types').RecordOf<'/admin/v1/users/{userId}'>} */
  const { data: u, reload, placeholder } = useRecord(path, {}, [userId], page);
  const revoke = useAction(() => api('POST', `${path}/revoke-tokens`), reload);
  const unban = useAction(() => api('POST', `${path}/unban`, { query: { actor: session.moderator() } }), reload);
  if (placeholder) return placeholder;
  const activeBans = u.bans.filter((b) => !b.liftedAt && (!b.until || Date.parse(b.until) > Date.now()));
  return html`<section>
    <h1>
      User ${u.userId}
      <span class="muted">${u.username}</span> ${u.banned ? html`<span class="bad">banned</span>` : null}
    </h1>
    <p><a href=${href('/orders', { userId: u.userId })}>Orders of this user</a></p>
    <${ActionStatus} action=${revoke} done=${(r) => `Revoked ${r.revoked} token(s).`} />
    <${ActionStatus} action=${unban} done=${(r) => `Lifted ${r.lifted} ban(s).`} />
    <${Details}
      rows=${[
        ['User code', u.userCode],
        ['Status', u.status],
        ['Registered', html`${time(u.registTime)} from ${u.registIp}`],
        ['Guest', u.isGuest ? 'yes' : 'no'],
        ['Cancellation due', time(u.cancelDueAt)],
        ['Cancelled', time(u.cancelledAt)],
      ]}
    />
    <p class="actions">
      <${ConfirmButton}
        label="Revoke tokens"
        question="Revoke every token of this user? They must log in again."
        onConfirm=${revoke.run}
      />
      ${activeBans.length ? html`<${ConfirmButton} label="Unban" question="Lift every ban in force on this user?" onConfirm=${unban.run} />` : null}
    </p>
    <h2>Login methods</h2>
    <${Table} rows=${u.methods} empty="None." columns=${LOGIN_METHODS} />
    <h2>Sessions</h2>
    <${Table} rowKey=${(s) => s.tokenId} rows=${u.sessions} empty="No sessions." columns=${SESSIONS} />
    <h2>Bans</h2>
    <${Table} rowKey=${(b) => b.banId} rows=${u.bans} empty="Never banned." columns=${BANS} />
    <${BanForm} userId=${u.userId} onDone=${reload} />
  </section>`;
}

export function UsersPage({ route }) {
  const [, id] = route.segments;
  if (id) return html`<${UserDetail} userId=${id} />`;
  return html`<${UserSearch} query=${route.query} />`;
}
