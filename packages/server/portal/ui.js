// ui.js - shared pieces of the portal: the html tag (text always escaped, no raw-HTML path), a read hook, an
// action hook, a form field and the error box.
import { h } from '/console/vendor/preact.module.js';
import { useCallback, useEffect, useState } from '/console/vendor/hooks.module.js';
import htm from '/console/vendor/htm.module.js';
import { api } from '/portal/api.js';

export const html = htm.bind(h);

/** Runs an API read when `deps` change: { data, error, loading, reload }. */
export function useApi(path, query, deps) {
  const [state, setState] = useState({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    api('GET', path, { query }).then(
      (data) => live && setState({ data, error: undefined, loading: false }),
      (error) => live && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** A write: run(...) sets busy, then result or error. */
export function useAction(fn) {
  const [state, setState] = useState({ busy: false, error: undefined, result: undefined });
  const run = async (...args) => {
    setState({ busy: true, error: undefined, result: undefined });
    try {
      const result = await fn(...args);
      setState({ busy: false, error: undefined, result });
      return result;
    } catch (error) {
      setState({ busy: false, error, result: undefined });
      return undefined;
    }
  };
  return { ...state, run };
}

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
