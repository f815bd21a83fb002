import type { Command } from 'commander';
import { PAGE_DEFAULT, PAGE_MAX } from '../http/admin-query.js';

/** The options a list command ends with, besides its own filters: a time window, then a page. */
export interface ListOptions {
  /** The help of `--from <time>` and of `--to <time>`, e.g. ['created at or after (ISO 8601 or Unix ms)', 'created before']. */
  window?: [from: string, to: string];
  /** The argument and help of `--before`, e.g. ['<trxNo>', 'page: orders with a smaller trxNo']. */
  before?: [arg: string, help: string];
}

/** Adds `--from`/`--to` (when a window is given), `--before` (when given) and `--limit` to a list command, in that order. */
export function addListOptions(command: Command, { window, before }: ListOptions): Command {
  if (window) command.option('--from <time>', window[0]).option('--to <time>', window[1]);
  if (before) command.option(`--before ${before[0]}`, before[1]);
  return command.option('--limit <n>', `1-${PAGE_MAX}`, String(PAGE_DEFAULT));
}

/** The window and page given to a list command, as the list queries' parsers take them. */
export const windowAndPage = (o: { from?: string; to?: string; before?: string; limit?: string }) => ({
  from: o.from,
  to: o.to,
  before: o.before,
  limit: o.limit,
});
