// @ts-check
// ui.js - the portal's pieces: the kit (/console/kit/ui.js, shared with the operator console) bound to the portal API.
import { api } from '/portal/api.js';
import { readHook, useAction } from '/console/kit/hooks.js';
import { listPage } from '/console/kit/list.js';

export { BEFORE_PAGING, CURSOR_PAGING } from '/console/kit/list.js';

export * from '/console/kit/ui.js';

const read = readHook(api);

/** Runs an API read (GET) when `deps` change: { data, error, loading, reload }. */
export function useApi(path, query, deps) {
  return read('GET', path, { query }, deps);
}

export { useAction };

/** A list page declared as data (kit/list.js), reading the portal API. */
export const ListPage = listPage(read);
