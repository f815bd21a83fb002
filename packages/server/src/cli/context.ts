import type { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { createServices, type Services } from '../services.js';
import { printCliFailure } from './cli-error.js';

/** What every operator command needs: the config, the services, and how to print. */
export interface CliContext {
  config(): Config;
  withServices<T>(fn: (services: Services) => Promise<T>): Promise<T>;
  /** JSON with --json, otherwise the text form. */
  output(value: unknown, text: () => string): void;
  /** What a command reads (or does) with the services, printed: JSON with --json, otherwise its text form. */
  print<T>(read: (services: Services) => Promise<T>, text: (value: T) => string): Promise<void>;
}

export function cliContext(program: Command): CliContext {
  const config = (): Config => {
    try {
      return loadConfig();
    } catch (err) {
      if (err instanceof ConfigError) process.exit(printCliFailure(err, program.opts().json === true));
      throw err;
    }
  };
  const withServices: CliContext['withServices'] = async (fn) => {
    const services = await createServices(config());
    try {
      return await fn(services);
    } finally {
      await services.close();
    }
  };
  const output: CliContext['output'] = (value, text) => {
    console.log(program.opts().json ? JSON.stringify(value, null, 2) : text());
  };
  return {
    config,
    withServices,
    output,
    async print(read, text) {
      await withServices(async (services) => {
        const value = await read(services);
        output(value, () => text(value));
      });
    },
  };
}
