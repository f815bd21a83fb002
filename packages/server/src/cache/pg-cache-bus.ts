import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import client from 'prom-client';
import { channelName, type Notifications } from '../db/notifications.js';
import type { CacheBus, CacheKey } from './cache-bus.js';

/** A message on the bus: who sent it (`o`), which cache (`s`) and which entry (`k`, null for all of it). */
interface BusMessage {
  o: string;
  s: string;
  k: CacheKey | null;
}

/**
 * The cache bus of several instances on one PostgreSQL (issue 31): a change's cache delete is sent with NOTIFY
 * after its commit, and every other instance drops the entry when its LISTEN connection hears it, within
 * milliseconds instead of the caches' time-to-live. The TTLs stay as the fallback: while an instance's LISTEN
 * connection is down it may miss messages, so when it is back it drops every shared cache whole. The channel
 * is per schema, so deployments (and test files) sharing a database do not hear each other.
 */
export function pgCacheBus(notifications: Notifications, schema: string): PgCacheBus {
  const origin = crypto.randomBytes(8).toString('hex');
  const channel = channelName('gp_cache', crypto.createHash('sha256').update(schema).digest('hex').slice(0, 16));
  const subscribers = new Map<string, Array<(key: CacheKey | null) => void>>();
  const metrics = {
    connected: new client.Gauge({
      name: 'cache_bus_connected',
      help: '1 while this instance listens for the cache changes other instances make (PostgreSQL LISTEN); 0: its caches fall back to their time-to-live',
      registers: [],
    }),
    messages: new client.Counter({
      name: 'cache_bus_messages_total',
      help: 'Cache changes told to other instances (sent) and heard from them (received)',
      labelNames: ['direction'] as const,
      registers: [],
    }),
  };
  const dropAll = () => {
    for (const drops of subscribers.values()) for (const drop of drops) drop(null);
  };
  let everConnected = false;
  let down = false;
  let log: Pick<FastifyBaseLogger, 'info' | 'warn'> = { info: () => {}, warn: () => {} };
  let listener: { close(): Promise<void> } | undefined;
  const listen = () =>
    notifications.listen(channel, {
      message(payload) {
        const m = parse(payload);
        if (!m || m.o === origin) return;
        metrics.messages.inc({ direction: 'received' });
        for (const drop of subscribers.get(m.s) ?? []) drop(m.k);
      },
      connected() {
        metrics.connected.set(1);
        if (down)
          log.info('cache bus listening again: shared caches dropped, changes missed meanwhile are read afresh');
        // Messages sent while this instance was not listening are lost: read everything afresh.
        if (everConnected) dropAll();
        everConnected = true;
        down = false;
      },
      disconnected(err) {
        metrics.connected.set(0);
        if (!down)
          log.warn(
            { err: { message: err.message } },
            'cache bus (PostgreSQL LISTEN) lost: caches fall back to their time-to-live',
          );
        down = true;
      },
    });
  return {
    publish(scope, key) {
      const payload = JSON.stringify({ o: origin, s: scope, k: key } satisfies BusMessage);
      metrics.messages.inc({ direction: 'sent' });
      notifications.publish(channel, payload).catch((err: Error) => {
        // The change is committed; the others see it within the cache's time-to-live.
        log.warn({ err: { message: err.message }, scope }, 'cache bus: could not tell the other instances of a change');
      });
    },
    subscribe(scope, drop) {
      subscribers.set(scope, [...(subscribers.get(scope) ?? []), drop]);
    },
    attach(registry) {
      registry.registerMetric(metrics.connected);
      registry.registerMetric(metrics.messages);
    },
    start(logger) {
      log = logger;
      listener ??= listen();
    },
    close: async () => listener?.close(),
  };
}

export interface PgCacheBus extends CacheBus {
  attach(registry: client.Registry): void;
  /** Listens for the other instances' changes (boot.ts, once the logger exists). */
  start(log: Pick<FastifyBaseLogger, 'info' | 'warn'>): void;
  close(): Promise<void>;
}

function parse(payload: string): BusMessage | null {
  try {
    const m = JSON.parse(payload) as BusMessage;
    const keyOk = m.k === null || typeof m.k === 'string' || (typeof m.k === 'number' && Number.isFinite(m.k));
    return typeof m.o === 'string' && typeof m.s === 'string' && keyOk ? m : null;
  } catch {
    return null;
  }
}
