// The shapes the pages name in their JSDoc (`import('page-types').Schema<'Order'>`), drawn from the generated API types.
import type { components, paths } from './api';

export type { components, paths };

/** A named schema of the OpenAPI document (components.schemas). */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];

/** The JSON body of the 200 answer of `method` on `path` (a path as the OpenAPI document spells it). */
export type Answer<P extends keyof paths, M extends keyof paths[P] = 'get' & keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

/** The query of `GET path`. */
export type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;

/** The `data` of the web page API's success envelope ({code: 200, msg, data}) of `method` on `path`. */
export type PayData<P extends keyof paths, M extends keyof paths[P] = 'get' & keyof paths[P]> =
  Answer<P, M> extends { data: infer D } ? D : never;

/** A row of the array at `key` of the answer of `GET path` (a list page's rows). */
export type ListRow<P extends keyof paths, K extends string> = Answer<P> extends { [k in K]: (infer R)[] } ? R : never;

/** What a detail page's useRecord (console/kit/record.js) answers for `GET path`: the record once placeholder is unset. */
export interface RecordOf<P extends keyof paths> {
  data: Answer<P>;
  reload: () => void;
  placeholder: unknown;
}

/** What a read hook (console/kit/hooks.js useApi) answers for `GET path`: `data` once the answer is there. */
export interface ReadOf<P extends keyof paths> {
  data: Answer<P> | undefined;
  error: any;
  loading: boolean;
  reload: () => void;
}
