// @ts-check
// kit/list.js - a list page declared as data: what to read, its columns, filters, row link and actions, rendered by
// one component with its filter form, pager, loading, empty and error states. The console and the studio portal bind
// it to their own API client (listPage(useRead) in their ui.js).
import { useState } from '/console/vendor/hooks.module.js';
import { ErrorBox, FilterForm, Loading, Pager, Table, html, navigate } from '/console/kit/ui.js';

/**
 * The declaration (`spec`):
 * - title: the page's heading (none: the list sits inside another page);
 * - path: the API path it reads (GET), with the applied filters as its query plus `fixed` (e.g. a limit);
 * - rows: the key of the answer's array; rowKey(row): a row's identity;
 * - columns: [{ label, key (as?: 'time') | render(row), cellClass?(row) }]; rowLink?(row): the first column links there;
 * - filters: form fields ({ name, label, as?, options?, size? }), the query's keys; live: applied at each change
 *   (no Apply button);
 * - cursor: { next: the answer's cursor key, param: the query key it goes back in, pin?(answer): query keys held
 *   while paging (a window) } for "next page" paging; summary?(answer): a line above the table;
 * - select?(row): an id per row, each row then has a checkbox; actions?({ rows, selected, clear, reload }): beside the
 *   filters (buttons acting on the list or its selection);
 * - what (the loading text), empty (the text of an empty list; default "No {what} match."), className (the table's
 *   class), rowAttrs?(row);
 * - keep: the query keys a filter change keeps (default ['limit']; the others and the cursor start again);
 * - sectionClass: the page's class;
 * - intro?, footer?({ reload }): above the filters and under the list.
 *   selectLabel?(row): its checkbox's accessible name;
 * props: spec, query (the applied filters, e.g. the hash's), onQuery(next query) or `at` (the hash path the list lives
 * at: a new query goes there), refresh (a change reads again).
 */
/**
 * A column of a table (kit/ui.js Table) of rows of type `Row`: a row's value at `key`, or what render(row) draws.
 * @template Row
 * @typedef {{ label: string, key?: keyof Row & string, as?: 'time', render?: (row: Row) => unknown, cellClass?: (row: Row) => string | undefined }} Column
 */

/**
 * A filter's form field: `name` is a key of the API's query (kit/ui.js Field for the rest).
 * @template {string} Name
 * @typedef {{ name: Name, label: string, as?: string, options?: unknown[], size?: number, placeholder?: string, type?: string, maxlength?: string | number, inputmode?: string }} Filter
 */

/**
 * The declaration of a list page reading `GET path` (P, as the OpenAPI document spells it) whose answer holds its rows
 * at `rows` (K): the columns name the rows' fields and the filters the query's keys, checked by tsc against the schemas.
 * @template {keyof import('page-types').paths} P
 * @template {string} K
 * @typedef {object} ListSpec
 * @property {unknown} [title]
 * @property {string} path
 * @property {Record<string, unknown>} [fixed]
 * @property {K} rows
 * @property {(row: import('page-types').ListRow<P, K>) => string | number} rowKey
 * @property {Column<import('page-types').ListRow<P, K>>[]} columns
 * @property {(row: import('page-types').ListRow<P, K>) => string} [rowLink]
 * @property {Filter<keyof import('page-types').Query<P> & string>[]} [filters]
 * @property {boolean} [live]
 * @property {{ next: keyof import('page-types').Answer<P> & string, param: keyof import('page-types').Query<P> & string, pin?: (answer: import('page-types').Answer<P>) => Record<string, unknown> }} [cursor]
 * @property {(answer: import('page-types').Answer<P>) => unknown} [summary]
 * @property {(row: import('page-types').ListRow<P, K>) => string | number} [select]
 * @property {(row: import('page-types').ListRow<P, K>) => string} [selectLabel]
 * @property {(list: { rows: import('page-types').ListRow<P, K>[], selected: Set<string | number>, clear: () => void, reload: () => void }) => unknown} [actions]
 * @property {string} [what]
 * @property {string} [empty]
 * @property {string} [className]
 * @property {(row: import('page-types').ListRow<P, K>) => Record<string, unknown>} [rowAttrs]
 * @property {string[]} [keep]
 * @property {string} [sectionClass]
 * @property {unknown} [intro]
 * @property {(list: { reload: () => void }) => unknown} [footer]
 */

const NO_QUERY = {};

// The admin and portal APIs page a list one of two ways (src/http/admin-query.ts): newest first from `before` (the
// answer's nextBefore), or an opaque `cursor` (the answer's nextCursor). A spec's `cursor` names which.
/** @type {{ next: 'nextBefore', param: 'before' }} */
export const BEFORE_PAGING = { next: 'nextBefore', param: 'before' };
/** @type {{ next: 'nextCursor', param: 'cursor' }} */
export const CURSOR_PAGING = { next: 'nextCursor', param: 'cursor' };

export function listPage(useRead) {
  return function ListPage({
    spec,
    query = NO_QUERY,
    at,
    onQuery = at ? (q) => navigate(at, q) : () => undefined,
    refresh,
  }) {
    const read = { ...(spec.fixed ?? {}), ...query };
    const { data, error, loading, reload } = useRead('GET', spec.path, { query: read }, [
      spec.path,
      JSON.stringify(read),
      refresh,
    ]);
    const [selected, setSelected] = useState(new Set());
    const rows = data?.[spec.rows] ?? [];
    const clear = () => setSelected(new Set());
    const toggle = (id) => {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setSelected(next);
    };
    const columns = [
      ...(spec.select
        ? [
            {
              label: '',
              render: (row) =>
                html`<input
                  type="checkbox"
                  aria-label=${spec.selectLabel ? spec.selectLabel(row) : `select ${spec.select(row)}`}
                  checked=${selected.has(spec.select(row))}
                  onChange=${() => toggle(spec.select(row))}
                />`,
            },
          ]
        : []),
      ...spec.columns.map((c, i) =>
        i === 0 && spec.rowLink
          ? { ...c, render: (row) => html`<a href=${spec.rowLink(row)}>${c.render ? c.render(row) : row[c.key]}</a>` }
          : c,
      ),
    ];
    // Applying filters starts again on the first page; the query keys named in `keep` (default the limit) stay.
    const kept = (q) => Object.fromEntries((spec.keep ?? ['limit']).map((k) => [k, q[k]]));
    const next = spec.cursor ? data?.[spec.cursor.next] : null;
    const page = (cursor) =>
      onQuery({ ...query, ...(cursor && spec.cursor.pin ? spec.cursor.pin(data) : {}), [spec.cursor.param]: cursor });
    const body = html`${spec.intro ?? null}
      ${
        spec.filters
          ? html`<${FilterForm}
              key=${JSON.stringify(query)}
              query=${query}
              live=${spec.live}
              onApply=${(v) => onQuery({ ...kept(query), ...v })}
              fields=${spec.filters}
              >${spec.actions ? spec.actions({ rows, selected, clear, reload }) : null}<//
            >`
          : null
      }
      <${ErrorBox} error=${error} />
      ${
        loading
          ? html`<${Loading} what=${spec.what} />`
          : data
            ? html`${spec.summary ? spec.summary(data) : null}
                <${Table}
                  className=${spec.className}
                  rowKey=${spec.rowKey}
                  rowAttrs=${spec.rowAttrs}
                  empty=${spec.empty ?? (spec.what ? `No ${spec.what} match.` : undefined)}
                  rows=${rows}
                  columns=${columns}
                />
                ${
                  spec.cursor
                    ? html`<${Pager}
                        next=${next}
                        isFirst=${!query[spec.cursor.param]}
                        onNext=${() => page(next)}
                        onFirst=${() => page(undefined)}
                      />`
                    : null
                }`
            : null
      }
      ${spec.footer ? spec.footer({ reload }) : null}`;
    return spec.title
      ? html`<section class=${spec.sectionClass}>
          <h1>${spec.title}</h1>
          ${body}
        </section>`
      : html`<div class=${spec.sectionClass ?? 'list'}>${body}</div>`;
  };
}
