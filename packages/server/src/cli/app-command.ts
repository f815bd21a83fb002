import type { Command } from 'commander';
import { parseId } from '../http/admin-query.js';
import type { CliContext } from './context.js';

/** What a command about one app needs of the services: the app, read first. */
export interface AppsOf {
  apps: { get(appId: number): Promise<unknown> };
}

/** A command that reads something of one app and prints it. */
export interface AppReadCommand<S, T> {
  name: string;
  description?: string;
  /** How `<appId>` is read: parseId by default. */
  appId?: (value: string) => number;
  read(services: S, appId: number): Promise<T>;
  /** The text form (JSON with --json). */
  text(value: T): string;
}

/** Adds `<name> <appId>`: the app is read first, so an unknown app is a 404 as on the admin route. */
export function addAppReadCommand<S extends AppsOf, T>(
  parent: Command,
  ctx: CliContext<S>,
  spec: AppReadCommand<S, T>,
): Command {
  const command = parent.command(spec.name);
  if (spec.description) command.description(spec.description);
  return command.argument('<appId>').action(async (id: string) => {
    const appId = spec.appId ? spec.appId(id) : parseId('appId', id);
    await ctx.print(async (s) => {
      await s.apps.get(appId);
      return spec.read(s, appId);
    }, spec.text);
  });
}
