// @ts-check
// ui.js - the console's pieces: the kit (kit/ui.js, shared with the studio portal) bound to the admin API, and the
// permission hook.
import { api } from '/console/api.js';
import { readHook, useAction } from '/console/kit/hooks.js';
import { listPage } from '/console/kit/list.js';

export { BEFORE_PAGING, CURSOR_PAGING } from '/console/kit/list.js';
import { recordHook } from '/console/kit/record.js';

export * from '/console/kit/ui.js';

/** Runs an API read when `deps` change: { data, error, loading, reload }. */
export const useApi = readHook(api);

export { useAction };

/** A list page declared as data (kit/list.js), reading the admin API. */
export const ListPage = listPage(useApi);

/** A detail page's record (kit/record.js): { data, reload, placeholder }. */
export const useRecord = recordHook(useApi);

/**
 * Whether the signed-in operator has `permission` (GET /session lists the role's permissions): true, false, or
 * undefined while unknown. Pages hide what the role may not do; the API refuses it anyway (403 OPERATOR_FORBIDDEN).
 */
export function usePermission(permission) {
  /** @type {import('page-types').ReadOf<'/admin/v1/session'>} */
  const { data, error } = useApi('GET', '/session', {}, []);
  if (error) return true; // unknown: offer it and let the API decide
  return data ? data.permissions.includes(permission) : undefined;
}
