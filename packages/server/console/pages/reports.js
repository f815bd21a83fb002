// @ts-check
// pages/reports.js - the moderation queue: filtered report list with cursor paging, reportee counts, the audit log (pages/audit.js), report detail with evidence, history and the decision form.
import { useState } from '/console/vendor/hooks.module.js';
import { api, session } from '/console/api.js';
import {
  CURSOR_PAGING,
  ActionStatus,
  boundFields,
  Details,
  ListPage,
  SafeLink,
  Table,
  href,
  html,
  show,
  time,
  useAction,
  useRecord,
} from '/console/ui.js';
import { AuditLog } from '/console/pages/audit.js';

const STATUSES = ['', 'open', 'actioned', 'dismissed'];

const player = (p) =>
  html`<span class="player"
    >${p.role_name ? html`<strong>${p.role_name}</strong> ` : null}<span class="muted"
      >${p.svcid ? `svcid ${p.svcid}` : `role ${p.role_id ?? '-'}@${p.server_code ?? '-'}`}</span
    ></span
  >`;

function Tabs({ current }) {
  return html`<p class="tabs">
    <a href="#/reports" class=${current === 'list' ? 'active' : ''}>Reports</a>
    <a href="#/reports/reportees" class=${current === 'reportees' ? 'active' : ''}>Most reported players</a>
    <a href="#/reports/audit" class=${current === 'audit' ? 'active' : ''}>Audit log</a>
  </p>`;
}

/** The report queue, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/reports', 'reports'>} */
const REPORT_LIST = {
  title: 'Reports',
  intro: html`<${Tabs} current="list" />`,
  path: '/reports',
  rows: 'reports',
  rowKey: (r) => r.reportId,
  rowLink: (r) => href(`/reports/${r.reportId}`),
  what: 'reports',
  cursor: CURSOR_PAGING,
  filters: [
    { name: 'appId', label: 'App id', inputmode: 'numeric', size: 6 },
    { name: 'status', label: 'Status', as: 'select', options: STATUSES },
    { name: 'reportee', label: 'Reportee (svcid or role id)' },
    { name: 'reporter', label: 'Reporter (svcid or role id)' },
    { name: 'reasonId', label: 'Reason id', size: 6 },
  ],
  columns: [
    { label: 'Report', render: (r) => `#${r.reportId}` },
    { label: 'Created', key: 'createdAt', as: 'time' },
    { label: 'App', key: 'appId' },
    { label: 'Status', render: (r) => html`<span class=${`status-${r.status}`}>${r.status}</span>` },
    { label: 'Reporter', render: (r) => player(r.reporter) },
    { label: 'Reportee', render: (r) => player(r.reportee) },
    { label: 'Reasons', render: (r) => r.reasons.map((x) => `${x.id}${x.title ? ` ${x.title}` : ''}`).join(', ') },
    { label: 'Description', render: (r) => html`<span class="clip">${show(r.user_description)}</span>` },
    { label: 'Evidence', render: (r) => String(r.evidence.length) },
  ],
};

/** The most reported players, declared for the kit's ListPage. */
/** @type {import('/console/kit/list.js').ListSpec<'/admin/v1/reports/reportees', 'reportees'>} */
const REPORTEES = {
  title: 'Most reported players',
  intro: html`<${Tabs} current="reportees" />`,
  path: '/reports/reportees',
  rows: 'reportees',
  rowKey: (r) => `${r.appId}:${r.reportee.key}`,
  empty: 'No reports.',
  cursor: CURSOR_PAGING,
  filters: [
    { name: 'appId', label: 'App id', size: 6 },
    { name: 'status', label: 'Status', as: 'select', options: STATUSES },
  ],
  columns: [
    { label: 'App', key: 'appId' },
    { label: 'Reportee', render: (r) => player(r.reportee) },
    { label: 'Reports', key: 'reports' },
    { label: 'Open', key: 'openReports' },
    { label: 'Reporters', key: 'reporters' },
    { label: 'Last reported', key: 'lastReportedAt', as: 'time' },
    {
      label: '',
      render: (r) =>
        html`<a href=${href('/reports', { appId: r.appId, reportee: r.reportee.svcid ?? r.reportee.role_id })}
          >See reports</a
        >`,
    },
  ],
};

function ModerationForm({ report, onDone }) {
  const [form, setForm] = useState({
    status: report.status === 'open' ? 'actioned' : 'open',
    note: '',
    ban: false,
    banReason: '',
    permanent: false,
    until: '',
    liftBan: false,
  });
  const field = boundFields(form, setForm);
  const decide = useAction(() => {
    const body = {
      moderator: session.moderator(),
      status: form.status,
      note: form.note,
      expectedStatus: report.status,
    };
    if (form.ban) {
      const until = form.permanent ? null : new Date(form.until).toISOString();
      body.ban = { reason: form.banReason, until };
    }
    if (form.liftBan) body.liftBan = true;
    return api('POST', `/reports/${report.reportId}/moderation`, { body });
  }, onDone);
  const [confirming, setConfirming] = useState(false);
  const canBan = Boolean(report.reportee.svcid);
  const drastic = form.ban || form.liftBan;
  // A ban (or lifting one) asks first: the first submit shows the question, the second one decides.
  const submit = (e) => {
    e.preventDefault();
    if (drastic && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    decide.run();
  };
  return html`<form class="stacked moderation" onSubmit=${submit}>
    <h2>Decision</h2>
    <${ActionStatus} action=${decide} done=${(r) => `Saved: the report is now ${r.status}.`} />
    ${field('status', { label: 'New status', as: 'select', options: ['open', 'actioned', 'dismissed'] })}
    ${field('note', { label: 'Moderator note', as: 'textarea', rows: '3', required: true, maxlength: '4000' })}
    ${
      canBan
        ? html` ${field('ban', { label: "Also ban the reportee's account", type: 'checkbox' })}
          ${
            form.ban
              ? html`<fieldset>
                  ${field('banReason', { label: 'Ban reason', required: true, maxlength: '500' })}
                  ${field('permanent', { label: 'Permanent (until lifted)', type: 'checkbox' })}
                  ${form.permanent ? null : field('until', { label: 'Ban ends', type: 'datetime-local', required: true })}
                </fieldset>`
              : null
          }
          ${field('liftBan', { label: "Lift the bans in force on the reportee's account", type: 'checkbox' })}`
        : html`<p class="muted">The reportee has no platform account (svcid), so it cannot be banned from here.</p>`
    }
    ${
      confirming
        ? html`<span class="confirm" role="group">
            <span class="question"
              >${form.ban ? "Ban the reportee's account? Their tokens are revoked at once." : "Lift the bans on the reportee's account?"}</span
            >
            <button type="submit" class="danger confirm-yes" disabled=${decide.busy}>Yes, save the decision</button>
            <button type="button" class="confirm-no" onClick=${() => setConfirming(false)}>Cancel</button>
          </span>`
        : html`<button type="submit" class=${form.ban ? 'danger' : ''} disabled=${decide.busy}>
            ${form.ban ? 'Save decision and ban' : 'Save decision'}
          </button>`
    }
  </form>`;
}

function ReportDetail({ reportId }) {
  const path = `/reports/${encodeURIComponent(reportId)}`;
  const page = { what: 'report', title: `Report ${reportId}`, back: '#/reports', backLabel: 'All reports' };
  const opts = { query: { moderator: session.moderator() } };
  /** @type {import('page-types').RecordOf<'/admin/v1/reports/{reportId}'>} */
  const { data: r, reload, placeholder } = useRecord(path, opts, [reportId], page);
  if (placeholder) return placeholder;
  return html`<section>
    <h1>Report #${r.reportId} <span class=${`status-${r.status}`}>${r.status}</span></h1>
    <p>
      <a href=${href('/reports', { appId: r.appId })}>Reports of app ${r.appId}</a> ·
      <a href=${href('/reports/audit', { reportId: r.reportId })}>Audit log of this report</a>
    </p>
    <div class="columns">
      <div>
        <${Details}
          rows=${[
            ['App', html`<a href=${href(`/apps/${r.appId}`)}>${r.appId}</a>`],
            ['Created', time(r.createdAt)],
            ['Status changed', time(r.statusChangedAt)],
            ['Reporter', player(r.reporter)],
            [
              'Reportee',
              html`${player(r.reportee)}${r.reportee.svcid ? html` · <a href=${href(`/users/${r.reportee.svcid}`)}>user</a>` : null}`,
            ],
            ['Reportee server', show(r.reportee.server_code)],
            [
              'Reasons',
              html`<ul>
                ${r.reasons.map((x) => html`<li>${x.id}: ${show(x.title)}${x.extras ? html` <code>${x.extras}</code>` : null}</li>`)}
              </ul>`,
            ],
            ['Description', html`<div class="text">${show(r.user_description)}</div>`],
            ['Extras', show(r.extras)],
            [
              'Client',
              `${r.client_info.client_id} · ip ${r.client_info.ip ?? '-'} · device ${r.client_info.DeviceID ?? '-'}`,
            ],
          ]}
        />
        <h2>Evidence</h2>
        <${Table}
          empty="No evidence."
          rows=${r.evidence}
          columns=${[
            { label: 'Name', key: 'name' },
            { label: 'Type', key: 'contentType' },
            { label: 'Bytes', key: 'size_byte' },
            {
              label: 'Download',
              render: (e) =>
                e.downloadUrl
                  ? html`<${SafeLink} url=${e.downloadUrl}>download</${SafeLink}> <small class="muted">until ${time(e.downloadExpiresAt)}</small>`
                  : show(null),
            },
          ]}
        />
        <h2>History</h2>
        <${Table}
          empty="No status changes yet."
          rows=${r.history ?? []}
          columns=${[
            { label: 'When', key: 'at', as: 'time' },
            { label: 'From', key: 'fromStatus' },
            { label: 'To', key: 'status' },
            { label: 'Moderator', key: 'moderator' },
            { label: 'Note', key: 'note' },
          ]}
        />
      </div>
      <div><${ModerationForm} key=${r.status + r.statusChangedAt} report=${r} onDone=${reload} /></div>
    </div>
  </section>`;
}

export function ReportsPage({ route }) {
  const [, id] = route.segments;
  if (id === 'reportees') return html`<${ListPage} spec=${REPORTEES} query=${route.query} at="/reports/reportees" />`;
  if (id === 'audit') return html`<${AuditLog} query=${route.query} tabs=${html`<${Tabs} current="audit" />`} />`;
  if (id) return html`<${ReportDetail} reportId=${id} />`;
  return html`<${ListPage} spec=${REPORT_LIST} query=${route.query} at="/reports" />`;
}
