// @ts-check
// hooks.js - the read and write hooks of the console and the studio portal, each bound to its page's own API client.
import { useCallback, useEffect, useState } from '/console/vendor/hooks.module.js';

/**
 * A read hook for the API client `api(method, path, opts)`: useApi(method, path, opts, deps) runs the read when
 * `deps` change and answers { data, error, loading, reload }.
 */
/**
 * What a read hook answers besides `reload`: `data` is the answer's JSON (any: the page names its shape, page-types).
 * @typedef {{ data: any, error: any, loading: boolean }} ReadState
 */

/** @param {(method: string, path: string, opts: import('/console/kit/fetch-json.js').ApiOptions) => Promise<any>} api */
export function readHook(api) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {import('/console/kit/fetch-json.js').ApiOptions} opts
   * @param {unknown[]} deps
   */
  return function useApi(method, path, opts, deps) {
    const [state, setState] = useState(/** @type {ReadState} */ ({ data: undefined, error: undefined, loading: true }));
    const [tick, setTick] = useState(0);
    useEffect(() => {
      let live = true;
      setState((s) => ({ ...s, loading: true, error: undefined }));
      api(method, path, opts).then(
        (data) => live && setState({ data, error: undefined, loading: false }),
        (error) => live && setState({ data: undefined, error, loading: false }),
      );
      return () => {
        live = false;
      };
    }, [...deps, tick]);
    const reload = useCallback(() => setTick((t) => t + 1), []);
    return { ...state, reload };
  };
}

/** @typedef {{ busy: boolean, error: any, result: any }} ActionState */

/**
 * An action (a write): run(...) sets busy, then result or error; reset() clears them. `after()`, when given, runs once
 * the action succeeded (a page reading its record again).
 */
export function useAction(fn, after) {
  const [state, setState] = useState(/** @type {ActionState} */ ({ busy: false, error: undefined, result: undefined }));
  const run = async (...args) => {
    setState({ busy: true, error: undefined, result: undefined });
    try {
      const result = await fn(...args);
      after?.();
      setState({ busy: false, error: undefined, result });
      return result;
    } catch (error) {
      setState({ busy: false, error, result: undefined });
      return undefined;
    }
  };
  return { ...state, run, reset: () => setState({ busy: false, error: undefined, result: undefined }) };
}
