// ui.js - shared pieces of the portal: the html tag (text always escaped, no raw-HTML path), a read hook, an
// action hook, a form field and the error box.
import { h } from '/console/vendor/preact.module.js';
import htm from '/console/vendor/htm.module.js';
import { api } from '/portal/api.js';
import { readHook, useAction } from '/console/hooks.js';

export const html = htm.bind(h);

const read = readHook(api);

/** Runs an API read (GET) when `deps` change: { data, error, loading, reload }. */
export function useApi(path, query, deps) {
  return read('GET', path, { query }, deps);
}

export { useAction };

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <strong>Error <span class="code">${String(error.code ?? '')}</span></strong
    >${error.status ? html` <span class="muted">(HTTP ${error.status})</span>` : null}:${' '}
    <span class="msg">${String(error.msg ?? error.message ?? error)}</span>
    ${error.detail ? html`<div class="detail">${String(error.detail)}</div>` : null}
  </div>`;
}

export function Field({ label, name, value, onInput, type = 'text', as = 'input', options = [], hint, ...rest }) {
  const id = `f-${name}`;
  const handler = (e) => onInput(e.currentTarget.value);
  let control;
  if (as === 'textarea')
    control = html`<textarea id=${id} name=${name} value=${value} onInput=${handler} ...${rest}></textarea>`;
  else if (as === 'select')
    control = html`<select id=${id} name=${name} value=${value} onChange=${handler} ...${rest}>
      ${options.map((o) => html`<option value=${o}>${o === '' ? '(any)' : o}</option>`)}
    </select>`;
  else control = html`<input id=${id} name=${name} type=${type} value=${value} onInput=${handler} ...${rest} />`;
  return html`<div class="field">
    <label for=${id}>${label}</label>${control}${hint ? html`<small class="muted">${hint}</small>` : null}
  </div>`;
}

/** An ISO time as the browser's local time, or a dash. */
export const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
