// @ts-check
// kit/record.js - the record a detail page shows: read by id, and until it is there the loading line or, when it
// did not load, the failure ("... was not found" for a 404) with a way back.
import { LoadFailed, Loading, html } from '/console/kit/ui.js';

/**
 * Binds a read hook (hooks.js readHook): useRecord(path, opts, deps, page) reads `path` (GET) when `deps` change, with
 * page = { what (the loading text), title, back, backLabel (the way back when it failed) }, and answers
 * { data, reload, placeholder }: while `placeholder` is set, the page shows it instead of the record.
 */
export function recordHook(useApi) {
  return function useRecord(path, opts, deps, page) {
    const { data, error, loading, reload } = useApi('GET', path, opts, deps);
    let placeholder = null;
    if (loading && !data) placeholder = html`<${Loading} what=${page.what} />`;
    else if (error)
      placeholder = html`<${LoadFailed}
        title=${page.title}
        error=${error}
        back=${page.back}
        backLabel=${page.backLabel}
      />`;
    return { data, reload, placeholder };
  };
}
