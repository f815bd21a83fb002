import type { Command, OptionValues } from 'commander';
import { parseId } from '../http/admin-query.js';
import type { CliContext } from './context.js';
import { addListOptions } from './list-options.js';

/**
 * A payment channel's message list (orders/payments/channel-messages.ts: the stores' and the providers' logs):
 * `app <name> <appId>` with the channel's own filters, then `--since` and a page by messageId.
 */
export interface MessageListCommand<S, F, M> {
  name: string;
  description: string;
  /** The channel's own options, e.g. ['--store <store>', 'apple | google']. */
  filters: [flags: string, help: string][];
  /** The given options (commander names them as the list query does) as the log's filter. */
  parse(appId: number, options: OptionValues): F;
  list(services: S, filter: F): Promise<M[]>;
  line(message: M): string;
  /** What the text form says when there are none. */
  none: string;
}

/** Adds the command; the app is read first, so an unknown app is a 404 as on the admin route. */
export function addMessageListCommand<S extends { apps: { get(appId: number): Promise<unknown> } }, F, M>(
  app: Command,
  ctx: CliContext<S>,
  spec: MessageListCommand<S, F, M>,
): void {
  const command = app.command(spec.name).description(spec.description).argument('<appId>');
  for (const [flags, help] of spec.filters) command.option(flags, help);
  addListOptions(command.option('--since <time>', 'received at or after (ISO 8601 or Unix ms)'), {
    before: ['<messageId>', 'page: messages with a smaller id'],
  }).action(async (id: string, o: OptionValues) => {
    const appId = parseId('appId', id);
    const filter = spec.parse(appId, o);
    await ctx.printList(
      'messages',
      async (s) => {
        await s.apps.get(appId);
        return spec.list(s, filter);
      },
      spec.line,
      spec.none,
    );
  });
}
