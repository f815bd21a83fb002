import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { addListOptions } from '../cli/list-options.js';
import { invalidParameter } from '../errors/app-error.js';
import { PAGE_DEFAULT, PAGE_MAX, parseId, parseLimit, parseTime } from '../http/admin-query.js';
import type { DeliveryEvent } from './delivery.schemas.js';
import { TEST_EVENT_KINDS, type TestEventKind } from './event-types.js';
import type { DeliveryService } from './delivery.service.js';

/** What the `events` commands use. */
export interface DeliveryCommandServices {
  delivery: DeliveryService;
}

const line = (e: DeliveryEvent) =>
  `#${e.eventId}  app ${e.appId}  ${e.type}->${e.target}${e.serverId ? `[${e.serverId}]` : ''}  ${e.state}  attempts ${e.attempts}  created ${e.createdAt}${e.lastError ? `  last error: ${e.lastError}` : ''}`;

/**
 * Operator commands of the delivery engine. They work on the database; a
 * running service picks resent and recovered events up at its next poll.
 */
export function registerDeliveryCommands(program: Command, ctx: CliContext<DeliveryCommandServices>): void {
  const events = program.command('events').description('game events in the outbox: list, show, resend, recover, test');

  addListOptions(
    events
      .command('list')
      .option('--app <appId>')
      .option('--state <state>', 'pending | delivered | dead')
      .option('--type <type>'),
    { window: ['created at or after (ISO 8601 or Unix ms)', 'created before'] },
  ).action(async (o) => {
    await ctx.printList(
      'events',
      (s) =>
        s.delivery.list({
          ...(o.app ? { appId: parseId('app', o.app) } : {}),
          ...(o.state ? { state: o.state } : {}),
          ...(o.type ? { type: o.type } : {}),
          ...(o.from ? { from: parseTime('from', o.from) } : {}),
          ...(o.to ? { to: parseTime('to', o.to) } : {}),
          limit: parseLimit('limit', o.limit, PAGE_DEFAULT, PAGE_MAX),
        }),
      line,
      'no events',
    );
  });

  events
    .command('show')
    .argument('<eventId>')
    .action((id: string) =>
      ctx.print(
        (s) => s.delivery.get(parseId('eventId', id)),
        (e) =>
          [
            line(e),
            `body ${e.body}`,
            ...e.attemptLog.map(
              (a) =>
                `  attempt ${a.attemptNo} ${a.startedAt} ${a.url ?? '-'} -> ${a.outcome}${a.httpStatus !== null ? ` HTTP ${a.httpStatus}` : ''} ${a.latencyMs} ms${a.error ? `  ${a.error}` : ''}`,
            ),
          ].join('\n'),
      ),
    );

  events
    .command('resend')
    .argument('<eventId>')
    .description('deliver an event again now')
    .action((id: string) =>
      ctx.print(
        (s) => s.delivery.resend(parseId('eventId', id)),
        (e) => `#${e.eventId} is due now`,
      ),
    );

  events
    .command('recover')
    .requiredOption('--app <appId>')
    .requiredOption('--since <time>', 'dead since (ISO 8601 or Unix ms)')
    .description('deliver again every dead event of an app that died since a time')
    .action(async (o) => {
      await ctx.withServices(async (s) => {
        const recovered = await s.delivery.recover(parseId('app', o.app), parseTime('since', o.since));
        ctx.output({ recovered }, () => `${recovered} events are due again`);
      });
    });

  events
    .command('test')
    .requiredOption('--app <appId>')
    .requiredOption('--type <type>', 'payment | refund | cancellation')
    .option('--server-id <serverId>')
    .description('send a test event, signed and delivered like a real one')
    .action(async (o) => {
      if (!(TEST_EVENT_KINDS as readonly string[]).includes(o.type))
        throw invalidParameter('type', 'must be payment, refund or cancellation');
      await ctx.withServices(async (s) => {
        const eventId = await s.delivery.sendTestEvent(
          parseId('app', o.app),
          o.type as TestEventKind,
          o.serverId ?? null,
        );
        ctx.output({ eventId }, () => `test event #${eventId} queued`);
      });
    });
}
