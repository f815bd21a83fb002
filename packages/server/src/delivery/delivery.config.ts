import { ConfigError, type Config } from '../config/config.js';
import { addressGuardFor } from './address-guard.js';
import { OutboundHttp } from './http-client.js';
import type { DispatcherOptions } from './dispatcher.js';
import { parseSchedule } from './schedule.js';

/** The dispatcher's settings from the environment (config/config.ts documents each). */
export function deliveryOptions(config: Config): DispatcherOptions {
  let schedule;
  try {
    schedule = parseSchedule(config.DELIVERY_SCHEDULE, config.DELIVERY_JITTER);
  } catch (err) {
    throw new ConfigError(`invalid configuration: DELIVERY_SCHEDULE: ${(err as Error).message}`);
  }
  return {
    schedule,
    timeoutMs: config.DELIVERY_TIMEOUT_MS,
    concurrency: config.DELIVERY_CONCURRENCY,
    hostConcurrency: config.DELIVERY_HOST_CONCURRENCY,
    appRate: config.DELIVERY_APP_RATE,
    batch: config.DELIVERY_BATCH,
    pollMs: config.DELIVERY_POLL_MS,
    leaseMs: config.DELIVERY_LEASE_MS,
  };
}

/** The HTTP client of every call to games, with the address guard in production mode. */
export function outboundHttp(config: Config): OutboundHttp {
  try {
    return new OutboundHttp(addressGuardFor(config.production, config.CALLBACK_PRIVATE_ALLOWLIST));
  } catch (err) {
    throw new ConfigError(`invalid configuration: CALLBACK_PRIVATE_ALLOWLIST: ${(err as Error).message}`);
  }
}
