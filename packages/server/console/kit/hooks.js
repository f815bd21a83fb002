// hooks.js - the read and write hooks of the console and the studio portal, each bound to its page's own API client.
import { useCallback, useEffect, useState } from '/console/vendor/hooks.module.js';

/**
 * A read hook for the API client `api(method, path, opts)`: useApi(method, path, opts, deps) runs the read when
 * `deps` change and answers { data, error, loading, reload }.
 */
export function readHook(api) {
  return function useApi(method, path, opts, deps) {
    const [state, setState] = useState({ data: undefined, error: undefined, loading: true });
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

/**
 * An action (a write): run(...) sets busy, then result or error; reset() clears them. `after()`, when given, runs once
 * the action succeeded (a page reading its record again).
 */
export function useAction(fn, after) {
  const [state, setState] = useState({ busy: false, error: undefined, result: undefined });
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
