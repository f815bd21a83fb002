import pg from 'pg';

/** What a listener hears: each message, and when its connection comes and goes. */
export interface ListenHandlers {
  message(payload: string): void;
  /** Listening (again): messages sent while it was not were missed. */
  connected(): void;
  disconnected(err: Error): void;
}

/**
 * PostgreSQL's LISTEN/NOTIFY, the one place that knows its SQL (no other server needed to tell instances something
 * at once). A message is at most 8000 bytes and reaches only the instances listening at the time it is committed.
 */
export interface Notifications {
  publish(channel: string, payload: string): Promise<void>;
  /** Listens on a connection of its own, reconnected after it is lost (every `retryMs`). */
  listen(channel: string, handlers: ListenHandlers, retryMs?: number): { close(): Promise<void> };
}

/** A channel name safe as an SQL identifier: [a-z0-9_], at most 63 bytes. */
export function channelName(prefix: string, scope: string): string {
  return `${prefix}_${scope}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 63);
}

export function pgNotifications(url: string, publishPool: pg.Pool): Notifications {
  return {
    async publish(channel, payload) {
      await publishPool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen(channel, handlers, retryMs = 1000) {
      let client: pg.Client | undefined;
      let closed = false;
      let timer: NodeJS.Timeout | undefined;
      const lost = (err: Error) => {
        const c = client;
        client = undefined;
        c?.removeAllListeners('notification');
        c?.end().catch(() => {});
        if (closed) return;
        handlers.disconnected(err);
        timer = setTimeout(connect, retryMs);
        timer.unref();
      };
      const connect = async () => {
        const c = new pg.Client({
          connectionString: url,
          application_name: 'game-platform cache bus',
          keepAlive: true,
        });
        // Errors of a connection that never listened are the catch's below; of one listening, `lost`'s.
        c.on('error', (err) => {
          if (client === c) lost(err);
        });
        c.on('end', () => {
          if (client === c) lost(new Error('connection ended'));
        });
        try {
          await c.connect();
          await c.query(`listen "${channel}"`);
        } catch (err) {
          c.end().catch(() => {});
          if (closed) return;
          handlers.disconnected(err as Error);
          timer = setTimeout(connect, retryMs);
          timer.unref();
          return;
        }
        if (closed) {
          await c.end().catch(() => {});
          return;
        }
        client = c;
        c.on('notification', (n) => {
          if (n.channel === channel && n.payload !== undefined) handlers.message(n.payload);
        });
        handlers.connected();
      };
      void connect();
      return {
        async close() {
          closed = true;
          clearTimeout(timer);
          const c = client;
          client = undefined;
          await c?.end().catch(() => {});
        },
      };
    },
  };
}
