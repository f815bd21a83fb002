import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TObject } from '@sinclair/typebox';
import { nextBeforeOf } from '../../http/admin-query.js';
import { adminRoute } from '../../http/api-route.js';
import { AppIdParams } from '../../http/route-params.js';

type Admin = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * The operator's list of one kind of channel's messages (the store messages, the provider messages: the one message
 * log, channel-messages.ts), each kind its own path, query, filter and view.
 */
export interface MessageListRoute<Q extends TObject, F extends { limit: number }, M extends { messageId: number }> {
  path: string;
  summary: string;
  querystring: Q;
  /** `{ messages, nextBefore }`, the messages by Ref. */
  response: TObject;
  /** The query as the log's filter (bad filters: 400). */
  filter(appId: number, q: Static<Q>): F;
  /** A page of the app's messages, newest first, as operators see them. */
  messages(filter: F): Promise<M[]>;
}

/** Adds the list route (under /admin/v1): an unknown app is 404, then a page and the id to ask the next one before. */
export function messageListRoute<Q extends TObject, F extends { limit: number }, M extends { messageId: number }>(
  app: Admin,
  apps: { get(appId: number): Promise<unknown> },
  spec: MessageListRoute<Q, F, M>,
): void {
  app.get(
    spec.path,
    adminRoute({
      summary: spec.summary,
      params: AppIdParams,
      querystring: spec.querystring,
      response: { 200: spec.response },
    }),
    async (request) => {
      const appId = request.params.appId;
      await apps.get(appId);
      const filter = spec.filter(appId, request.query as Static<Q>);
      const messages = await spec.messages(filter);
      return { messages, nextBefore: nextBeforeOf(messages, filter.limit, (m) => m.messageId) };
    },
  );
}
