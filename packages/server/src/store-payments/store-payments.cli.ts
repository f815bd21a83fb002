import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { PAGE_DEFAULT, PAGE_MAX } from '../http/admin-query.js';
import { parseStoreMessagesQuery, toMessage, type StoreMessage } from './store-payments.schemas.js';

const line = (m: StoreMessage) =>
  `#${m.messageId}  ${m.receivedAt}  ${m.store} ${m.source}  ${m.type ?? '-'}  ${m.outcome}${m.errorCode ? ` (${m.errorCode})` : ''}  trxNo ${m.trxNo ?? '-'}  ${m.notificationId ?? ''}`;

/** `app store-messages <appId>`: what the stores sent for an app (and the reconciliation found), with outcomes. */
export function registerStoreMessageCommands(app: Command, ctx: CliContext): void {
  app
    .command('store-messages')
    .description("an app's App Store and Google Play messages, newest first, verified or not, with their outcome")
    .argument('<appId>')
    .option('--store <store>', 'apple | google')
    .option('--outcome <outcome>', 'applied | duplicate | ignored | refused')
    .option('--since <time>', 'received at or after (ISO 8601 or Unix ms)')
    .option('--before <messageId>', 'page: messages with a smaller id')
    .option('--limit <n>', `1-${PAGE_MAX}`, String(PAGE_DEFAULT))
    .action(async (id: string, o) => {
      if (!/^[0-9]{1,15}$/.test(id)) throw invalidParameter('appId', 'must be a number');
      const appId = Number(id);
      const filter = parseStoreMessagesQuery(appId, {
        store: o.store,
        outcome: o.outcome,
        since: o.since,
        before: o.before,
        limit: o.limit,
      });
      await ctx.withServices(async (s) => {
        if (!(await s.apps.resolveByAppId(appId))) throw new AppError('NOT_FOUND', `app ${appId} does not exist`);
        const messages = (await s.storePayments.messages.list(filter)).map(toMessage);
        ctx.output({ messages }, () => messages.map(line).join('\n') || 'no store messages');
      });
    });
}
