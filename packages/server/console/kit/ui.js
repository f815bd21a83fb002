// @ts-check
// kit/ui.js - the pieces every page of the console and the studio portal is made of: the html tag (text always
// escaped, no raw-HTML path), hash routing, table, form field (and fields bound to a form's state), filter form,
// pager, error box, an action's status, loading and empty states, confirm button, copy button. Served once under
// /console/kit/; the portal loads the same files.
import { h } from '/console/vendor/preact.module.js';
import { useEffect, useState } from '/console/vendor/hooks.module.js';
import htm from '/console/vendor/htm.module.js';

/** Preact through htm: text is always escaped; there is no raw-HTML path in the console. */
export const html = htm.bind(h);

// --- hash routing: #/path?query ---

/** The current route: path segments and query of the hash (`home` when there is none). */
export function currentRoute(home = '/') {
  const raw = location.hash.replace(/^#/, '') || home;
  const [path, qs = ''] = raw.split('?');
  return {
    path,
    segments: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: Object.fromEntries(new URLSearchParams(qs)),
  };
}

/** The hash of a route: `href('/reports', { status: 'open' })` -> `#/reports?status=open`. */
export function href(path, query = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return `#${path}${s ? `?${s}` : ''}`;
}

export function navigate(path, query = {}) {
  location.hash = href(path, query);
}

export function ErrorBox({ error }) {
  if (!error) return null;
  // The envelope's detail often repeats its message (a refused sign-in): the sentence is shown once.
  const msg = String(error.msg ?? error.message ?? error);
  return html`<div class="error" role="alert">
    <strong>Error <span class="code">${String(error.code ?? '')}</span></strong
    >${error.status ? html` <span class="muted">(HTTP ${error.status})</span>` : null}:${' '}
    <span class="msg">${msg}</span>
    ${error.detail && String(error.detail) !== msg ? html`<div class="detail">${String(error.detail)}</div>` : null}
  </div>`;
}

/** What an action (useAction) came to: its error, or once it succeeded `done(result)` as a status line. */
export function ActionStatus({ action, done }) {
  return html`<${ErrorBox} error=${action.error} />
    ${action.result ? html`<p class="ok" role="status">${done(action.result)}</p>` : null}`;
}

/** A detail page whose record did not load: its title, "... was not found" for a 404, the error, and a way back. */
export function LoadFailed({ title, error, back, backLabel }) {
  return html`<section>
    <h1>${title}</h1>
    ${error.status === 404 ? html`<p class="notfound" role="alert">${title} was not found.</p>` : null}
    <${ErrorBox} error=${error} />
    <p><a href=${back}>${backLabel}</a></p>
  </section>`;
}

export function Loading({ what = '' }) {
  return html`<p class="muted" aria-busy="true">Loading${what ? ` ${what}` : ''}...</p>`;
}

/**
 * A table: columns [{ label, render(row) | key (as: 'time' for a date-time), cellClass?(row) }], rows; `empty` when
 * there are none. `rowAttrs(row)` gives each row's attributes (data-* for tests), `className` the table's class.
 */
export function Table({ columns, rows, empty = 'Nothing to show.', rowKey, rowAttrs, className }) {
  if (!rows || rows.length === 0) return html`<p class="muted empty">${empty}</p>`;
  return html`<table class=${className}>
    <thead>
      <tr>
        ${columns.map((c) => html`<th>${c.label}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row, i) =>
          html`<tr key=${rowKey ? rowKey(row) : i} ...${rowAttrs ? rowAttrs(row) : {}}>
            ${columns.map((c) => html`<td class=${c.cellClass?.(row)}>${cell(c, row)}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A cell of a table: its render(row), or the row's value at `key` as text (or as a time). */
function cell(c, row) {
  if (c.render) return c.render(row);
  return c.as === 'time' ? time(row[c.key]) : show(row[c.key]);
}

/** A value as text: null shows as a dash, objects as JSON. */
export function show(v) {
  if (v === null || v === undefined || v === '') return html`<span class="muted">-</span>`;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

// --- dates: the one formatter of the console and the portal ---

/** A date (ISO text, Unix ms or a Date) as a Date, or null when it is none or unreadable. */
function dateOf(value) {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const LOCAL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const LOCAL_SHORT = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const LOCAL_DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** A date in the operator's time zone (the browser's): `short` (day and minute) or `day`; '' when it is none. */
export function localText(value, style) {
  const d = dateOf(value);
  if (!d) return value === null || value === undefined ? '' : String(value);
  return (style === 'short' ? LOCAL_SHORT : style === 'day' ? LOCAL_DAY : LOCAL).format(d);
}

/** The same date in UTC, as hover text: "2026-11-29 06:30:19 UTC". */
export function utcText(value) {
  const d = dateOf(value);
  return d ? `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC` : '';
}

/** A date-time shown in the operator's time zone, UTC on hover (`title`); a dash when there is none. */
export function time(value, style) {
  const d = dateOf(value);
  if (!d) return value ? String(value) : show(null);
  return html`<time datetime=${d.toISOString()} title=${utcText(d)}>${localText(d, style)}</time>`;
}

/** Key/value rows of a record. */
export function Details({ rows }) {
  return html`<dl class="details">
    ${rows.map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v}</dd>`,
    )}
  </dl>`;
}

/** A labelled input, textarea or select bound to value/onInput. */
export function Field({ label, name, value, onInput, type = 'text', as = 'input', options = [], hint, ...rest }) {
  const id = `f-${name}`;
  const handler = (e) => onInput(type === 'checkbox' ? e.currentTarget.checked : e.currentTarget.value);
  let control;
  if (as === 'textarea')
    control = html`<textarea id=${id} name=${name} value=${value} onInput=${handler} ...${rest}></textarea>`;
  else if (as === 'select') {
    control = html`<select id=${id} name=${name} value=${value} onChange=${handler} ...${rest}>
      ${options.map((o) => (Array.isArray(o) ? html`<option value=${o[0]}>${o[1]}</option>` : html`<option value=${o}>${o === '' ? '(any)' : o}</option>`))}
    </select>`;
  } else if (type === 'checkbox')
    control = html`<input id=${id} name=${name} type="checkbox" checked=${value} onChange=${handler} ...${rest} />`;
  else control = html`<input id=${id} name=${name} type=${type} value=${value} onInput=${handler} ...${rest} />`;
  return html`<div class="field ${type === 'checkbox' ? 'check' : ''}">
    <label for=${id}>${label}</label>${control}${hint ? html`<small class="muted">${hint}</small>` : null}
  </div>`;
}

/**
 * The fields of one form's state: `const field = boundFields(form, setForm)`, then field(key, props) is the Field named
 * `key` showing form[key] and setting it.
 */
export function boundFields(form, setForm) {
  return (key, props) =>
    html`<${Field} name=${key} value=${form[key]} onInput=${(v) => setForm({ ...form, [key]: v })} ...${props} />`;
}

/**
 * Focuses the control whose id is `id` (a link's `?focus=`, e.g. the checklist's) once `ready`, and scrolls it into
 * view: the link leads to the exact control, not only to its page.
 */
export function useFocus(id, ready) {
  useEffect(() => {
    const el = ready && id ? document.getElementById(id) : null;
    if (!el) return;
    el.focus();
    el.scrollIntoView({ block: 'center' });
  }, [id, ready]);
}

/** A button that asks first: a click shows the question with confirm and cancel (`id`: the first button's). */
export function ConfirmButton({ id, label, question, confirmLabel, onConfirm, danger = true, disabled = false }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return html`<button
      id=${id}
      type="button"
      class=${danger ? 'danger' : ''}
      disabled=${disabled}
      onClick=${() => setAsking(true)}
    >
      ${label}
    </button>`;
  return html`<span class="confirm" role="group">
    <span class="question">${question}</span>
    <button
      type="button"
      class=${danger ? 'danger confirm-yes' : 'confirm-yes'}
      onClick=${() => {
        setAsking(false);
        onConfirm();
      }}
    >
      ${confirmLabel ?? `Yes, ${label.toLowerCase()}`}
    </button>
    <button type="button" class="confirm-no" onClick=${() => setAsking(false)}>Cancel</button>
  </span>`;
}

/** Paging by cursor: "next page" when the API gave one, "first page" when not on the first. */
export function Pager({ next, onNext, onFirst, isFirst }) {
  if (!next && isFirst) return null;
  return html`<nav class="pager">
    ${!isFirst ? html`<button type="button" onClick=${onFirst}>First page</button>` : null}
    ${next ? html`<button type="button" class="next" onClick=${onNext}>Next page</button>` : html`<span class="muted">Last page.</span>`}
  </nav>`;
}

/** A secret shown once, with a warning. */
export function SecretOnce({ label = 'Secret', value }) {
  return html`<div class="secret" role="status">
    <p>
      <strong>${label}: shown only this once.</strong> Copy it now and store it safely; the console cannot show it
      again.
    </p>
    <code class="secret-value">${value}</code>
  </div>`;
}

/**
 * A filter form whose fields live in the page's query (the hash, so reload and back keep them): applied by its button,
 * or (`live`) at each change. `children` go after the fields (a list's actions).
 */
export function FilterForm({ fields, query, onApply, live = false, children }) {
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((f) => [f.name, query[f.name] ?? ''])));
  const submit = (e) => {
    e.preventDefault();
    if (!live) onApply(values);
  };
  const change = (name, v) => {
    const next = { ...values, [name]: v };
    setValues(next);
    if (live) onApply(next);
  };
  return html`<form class="filters" onSubmit=${submit}>
    ${fields.map((f) => html`<${Field} ...${f} value=${values[f.name]} onInput=${(v) => change(f.name, v)} />`)}
    ${live ? null : html`<div class="field"><label> </label><button type="submit">Apply</button></div>`} ${children}
  </form>`;
}

/** A link only for http(s) URLs (never javascript: or data:). */
export function SafeLink({ url, children }) {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return show(url);
  return html`<a href=${url} target="_blank" rel="noopener noreferrer">${children ?? url}</a>`;
}

/** A text to paste elsewhere (a URL), with a button that copies it; when the clipboard is out of reach, says so. */
export function CopyText({ name, value }) {
  const [status, setStatus] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('Copied.');
    } catch {
      setStatus('Could not copy: select the text and copy it.');
    }
  };
  return html`<span class="copy-text ${name}">
    <code class="copy-value">${value}</code>
    <button type="button" class="copy" onClick=${copy}>Copy</button>
    <span class="muted copy-status" role="status">${status}</span>
  </span>`;
}
