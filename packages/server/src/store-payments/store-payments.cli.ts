import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { AppService } from '../apps/apps.service.js';
import { parseId } from '../http/admin-query.js';
import type { StoreMessages } from './notifications.js';
import type { StoreConsumption } from './consumption.js';
import { addMessageListCommand } from '../cli/message-list.js';
import { invalidParameter } from '../errors/app-error.js';
import {
  parseStoreMessagesQuery,
  toConsumptionRequest,
  toMessage,
  type ConsumptionRequestView,
  type StoreMessage,
} from './store-payments.schemas.js';

/** What the store payments' commands use. */
export interface StorePaymentsCliServices {
  storePayments: { messages: Pick<StoreMessages, 'list'>; consumption: Pick<StoreConsumption, 'list'> };
  apps: Pick<AppService, 'get'>;
}

const line = (m: StoreMessage) =>
  `#${m.messageId}  ${m.receivedAt}  ${m.store} ${m.source}  ${m.type ?? '-'}  ${m.outcome}${m.errorCode ? ` (${m.errorCode})` : ''}  trxNo ${m.trxNo ?? '-'}  ${m.notificationId ?? ''}`;

/** `app store-messages <appId>`: what the stores sent for an app (and the reconciliation found), with outcomes. */
export function registerStoreMessageCommands(app: Command, ctx: CliContext<StorePaymentsCliServices>): void {
  addMessageListCommand(app, ctx, {
    name: 'store-messages',
    description: "an app's App Store and Google Play messages, newest first, verified or not, with their outcome",
    filters: [
      ['--store <store>', 'apple | google'],
      ['--outcome <outcome>', 'applied | duplicate | ignored | refused'],
    ],
    parse: parseStoreMessagesQuery,
    list: async (s, filter) => (await s.storePayments.messages.list(filter)).map(toMessage),
    line,
    none: 'no store messages',
  });
}

const requestLine = (r: ConsumptionRequestView) =>
  `#${r.requestId}  ${r.requestedAt}  transaction ${r.transactionId}  trxNo ${r.trxNo ?? '-'}  ${r.state}` +
  `${r.eventId !== null ? `  event ${r.eventId} ${r.eventState ?? '-'} after ${r.attempts ?? 0} attempt(s)` : ''}` +
  `${r.lastError ? `  last error: ${r.lastError}` : ''}`;

/** `app store-consumption-requests <appId>`: Apple's consumption requests and what was sent (docs/stores.md). */
export function registerConsumptionRequestCommands(app: Command, ctx: CliContext<StorePaymentsCliServices>): void {
  app
    .command('store-consumption-requests')
    .description("an app's App Store consumption requests, newest first, with what was sent to Apple and its delivery")
    .argument('<appId>')
    .option('--limit <n>', '1-200', '50')
    .action(async (id: string, o) => {
      const appId = parseId('appId', id);
      const limit = Number(o.limit);
      if (!/^[0-9]{1,3}$/.test(String(o.limit)) || limit < 1 || limit > 200)
        throw invalidParameter('limit', 'must be 1 to 200');
      await ctx.printList(
        'requests',
        async (s) => {
          await s.apps.get(appId);
          return (await s.storePayments.consumption.list(appId, limit)).map(toConsumptionRequest);
        },
        requestLine,
        'no consumption requests',
      );
    });
}
