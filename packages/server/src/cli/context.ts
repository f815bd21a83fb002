import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { printCliFailure } from './cli-error.js';

/**
 * What every operator command needs: the config, the services, and how to print. `S` is what a domain's commands
 * use (the composition root hands over its whole service container, which has it); a domain CLI names only that.
 */
export interface CliContext<S> {
  config(): Config;
  withServices<T>(fn: (services: S) => Promise<T>): Promise<T>;
  /** JSON with --json, otherwise the text form. */
  output(value: unknown, text: () => string): void;
  /** What a command reads (or does) with the services, printed: JSON with --json, otherwise its text form. */
  print<T>(read: (services: S) => Promise<T>, text: (value: T) => string): Promise<void>;
  /** A list read with the services, printed: `{ [key]: items }` with --json, otherwise a line an item (`none` if empty). */
  printList<T>(
    key: string,
    read: (services: S) => Promise<T[]>,
    line: (item: T) => string,
    none: string,
  ): Promise<void>;
}

/** The context over `open`, which builds the services from the config (the composition root's createServices). */
export function cliContext<S extends { close(): Promise<void> }>(
  program: Command,
  open: (config: Config) => Promise<S>,
): CliContext<S> {
  const config = (): Config => {
    try {
      return loadConfig();
    } catch (err) {
      if (err instanceof ConfigError) process.exit(printCliFailure(err, program.opts().json === true));
      throw err;
    }
  };
  const withServices: CliContext<S>['withServices'] = async (fn) => {
    const services = await open(config());
    try {
      return await fn(services);
    } finally {
      await services.close();
    }
  };
  const output: CliContext<S>['output'] = (value, text) => {
    console.log(program.opts().json ? JSON.stringify(value, null, 2) : text());
  };
  const print: CliContext<S>['print'] = async (read, text) => {
    await withServices(async (services) => {
      const value = await read(services);
      output(value, () => text(value));
    });
  };
  return {
    config,
    withServices,
    output,
    print,
    printList: (key, read, line, none) =>
      print(
        async (services) => ({ [key]: await read(services) }),
        (value) => value[key]!.map(line).join('\n') || none,
      ),
  };
}
