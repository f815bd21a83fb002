// @ts-check
// pages/people.js - the people of the service (issue 34), for the roles that hold operators.read: operator accounts
// (create, role, disable, reset, unlock), their API tokens, studio developers and pending invitations. Every change
// goes through the admin API, which records it in the audit trail; without operators.write the pages only read.
import { useState } from '/console/vendor/hooks.module.js';
import { api } from '/console/api.js';
import { TokensPage, TokensPanel } from '/console/pages/tokens.js';
import { DevelopersPage } from '/console/pages/developers.js';
import { InvitationsPage } from '/console/pages/invitations.js';
import {
  AccountCreated,
  AccountPage,
  ActionForm,
  EmailField,
  PersonNameField,
  PeopleTabs,
  ROLES,
  accountRecord,
  accountStatus,
  useAccountActions,
} from '/console/pages/peoplecommon.js';
import { ErrorBox, Field, ListPage, href, html, useAction, usePermission, useRecord } from '/console/ui.js';

const opPath = (name) => `/operators/${encodeURIComponent(name)}`;

/** The operators, declared for the kit's ListPage. */
/** @type {(canWrite: boolean | undefined) => import('/console/kit/list.js').ListSpec<'/admin/v1/operators', 'operators'>} */
const operatorList = (canWrite) => ({
  title: 'Operators',
  sectionClass: 'operators',
  intro: html`<${PeopleTabs} active="operators" />
    ${canWrite ? html`<p><a class="button new-operator" href="#/people/operators/new">New operator</a></p>` : null}`,
  path: '/operators',
  rows: 'operators',
  rowKey: (o) => o.name,
  rowLink: (o) => href(`/people/operators/${o.name}`),
  what: 'operators',
  empty: 'No operator accounts yet.',
  columns: [
    { label: 'Name', key: 'name' },
    { label: 'Role', key: 'role' },
    { label: 'Status', render: accountStatus },
    { label: 'Last sign-in', key: 'lastLoginAt', as: 'time' },
    { label: 'Recovery codes left', key: 'recoveryCodesLeft' },
    { label: 'Created', key: 'createdAt', as: 'time' },
  ],
});

function OperatorList() {
  const canWrite = usePermission('operators.write');
  return html`<${ListPage} spec=${operatorList(canWrite)} />`;
}

function OperatorCreate() {
  const [name, setName] = useState('');
  const [role, setRole] = useState('operator');
  const [email, setEmail] = useState('');
  const create = useAction(() =>
    api('POST', '/operators', { body: { name: name.trim(), role, ...(email.trim() ? { email: email.trim() } : {}) } }),
  );
  const created = create.result;
  if (created)
    return html`<${AccountCreated} kind="operator" name=${created.operator.name} created=${created}>
      Hand these to ${created.operator.name} over a safe channel.
    <//>`;
  return html`<section>
    <h1>New operator</h1>
    <${PeopleTabs} active="operators" />
    <${ErrorBox} error=${create.error} />
    <${ActionForm} className="stacked operator-create" onSubmit=${create.run}>
      <${PersonNameField} name="operatorName" value=${name} onInput=${setName} />
      <${Field} label="Role" name="operatorRole" as="select" options=${ROLES} value=${role} onInput=${setRole} />
      <${EmailField} name="operatorEmail" value=${email} onInput=${setEmail} />
      <button type="submit" disabled=${create.busy}>Create operator</button>
    <//>
  </section>`;
}

function OperatorDetail({ name }) {
  /** @type {import('page-types').RecordOf<'/admin/v1/operators/{name}'>} */
  const { data: op, reload, placeholder } = useRecord(opPath(name), {}, [name], accountRecord('operator', name));
  const canWrite = usePermission('operators.write');
  const [role, setRole] = useState(undefined);
  const actions = useAccountActions(opPath(name), reload);
  const setRoleAction = useAction((r) => actions.after(api('PATCH', opPath(name), { body: { role: r } })));
  if (placeholder) return placeholder;
  const save = {
    row: ['Role', op.role],
    field: html`<${Field}
      label="Role"
      name="role"
      as="select"
      options=${ROLES}
      value=${role ?? op.role}
      onInput=${setRole}
    />`,
    action: setRoleAction,
    disabled: setRoleAction.busy || (role ?? op.role) === op.role,
    onSave: () => setRoleAction.run(role),
  };
  return html`<${AccountPage} kind="operator" account=${op} actions=${actions} canWrite=${canWrite} save=${save}>
    <${TokensPanel} key=${op.role} operator=${op.name} ownerRole=${op.role} canWrite=${canWrite} />
  <//>`;
}

export function PeoplePage({ route }) {
  const [, what, name] = route.segments;
  if (what === 'tokens') return html`<${TokensPage} />`;
  if (what === 'developers') return html`<${DevelopersPage} name=${name} />`;
  if (what === 'invitations') return html`<${InvitationsPage} />`;
  if (what === 'operators' && name === 'new') return html`<${OperatorCreate} />`;
  if (what === 'operators' && name) return html`<${OperatorDetail} name=${name} />`;
  return html`<${OperatorList} />`;
}
