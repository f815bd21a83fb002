#!/usr/bin/env node
/** Runs the reference game server from environment variables (see README.md); stops cleanly on SIGINT/SIGTERM. */
import { ConfigError, loadConfig } from './config.js';
import { startGameServer } from './server.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`game server configuration: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const server = await startGameServer(config);
  console.log(`[game-server] listening on ${server.url} (data in ${config.dataDir})`);
  const stop = (signal: string) => {
    console.log(`[game-server] ${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  console.error(`game server failed to start: ${(e as Error).message}`);
  process.exit(1);
});
