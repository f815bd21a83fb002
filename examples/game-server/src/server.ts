/**
 * The reference game server: one node:http server for the platform's signed calls
 * (verified by the SDK's raw-body handler, 5.3), a health check and, when
 * configured, the game's ops endpoints.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MemoryNonceStore, createCallbackVerifier, nodeCallbackHandler, sendAnswer } from '@game-platform/sdk';
import type { GameServerConfig } from './config.js';
import { opsHandler } from './ops.js';
import { type CallCounters, newCounters, platformCallHandler } from './platform-calls.js';
import { PlatformKeyRing } from './platform-keys.js';
import { GameStore } from './store.js';

export interface RunningGameServer {
  /** e.g. http://127.0.0.1:8081 */
  url: string;
  port: number;
  store: GameStore;
  keys: PlatformKeyRing;
  counters: CallCounters;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Where log lines go. Default: console.log when config.log. */
  log?: (line: string) => void;
  /** For the key listing (tests). Default: the global fetch. */
  fetch?: typeof fetch;
}

export async function startGameServer(config: GameServerConfig, o: StartOptions = {}): Promise<RunningGameServer> {
  const log = o.log ?? (config.log ? (line: string) => console.log(`[game-server] ${line}`) : () => {});
  const store = GameStore.open(config.dataDir);
  try {
    for (const role of config.rolesSeed) store.upsertRole(role);
    const keys = new PlatformKeyRing(
      {
        inline: config.publicKeys,
        file: config.publicKeysFile,
        adminUrl: config.platformAdminUrl,
        adminToken: config.platformAdminToken,
        platformUrl: config.platformUrl,
      },
      { log, ...(o.fetch ? { fetch: o.fetch } : {}) },
    );
    const keyIds = await keys.refresh();
    log(`platform public keys loaded: ${keyIds.join(', ')}`);

    const counters = newCounters();
    const handler = platformCallHandler({ store, catalog: config.catalog, counters, log });
    // One nonce store for every verifier we build, so a key refresh does not forget seen nonces.
    const nonces = new MemoryNonceStore();
    const hooks = {
      onRejected: (err: Error, req: http.IncomingMessage) => {
        counters.refused++;
        log(`refused ${req.method} ${(req.url ?? '').split('?')[0]}: ${err.message}`);
      },
      onError: (err: unknown, req: http.IncomingMessage) =>
        log(`handling ${req.method} ${(req.url ?? '').split('?')[0]} failed: ${(err as Error)?.stack ?? String(err)}`),
    };
    const build = (publicKeys: Readonly<Record<string, string>>) =>
      nodeCallbackHandler(
        createCallbackVerifier({ publicKeys: { ...publicKeys }, nonces, windowSeconds: config.windowSeconds }),
        handler,
        hooks,
      );
    let platformCalls = build(keys.keys);
    keys.onChange = (k) => {
      platformCalls = build(k);
    };
    const ops = config.opsToken === null ? null : opsHandler({ token: config.opsToken, store, keys, counters, log });

    const server = http.createServer(async (req, res) => {
      try {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/healthz') return sendAnswer(res, { status: 200, body: { status: 'ok' } });
        if (path === '/ops' || path.startsWith('/ops/')) {
          if (!ops) return sendAnswer(res, { status: 404, body: { error: 'not found' } });
          return await ops(req, res);
        }
        // A key id we do not know may be a rotation: re-read the key sources once (throttled) first.
        const kid = req.headers['key-id'];
        if (typeof kid === 'string' && !keys.has(kid)) await keys.refreshForUnknownKey(kid);
        await platformCalls(req, res);
      } catch (e) {
        log(`request failed: ${(e as Error).message}`);
        if (!res.headersSent) sendAnswer(res, { status: 500, body: { code: 500, msg: 'internal error' } });
      }
    });
    const sockets = new Set<Socket>();
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      port,
      store,
      keys,
      counters,
      close() {
        closing ??= new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Requests in flight get a moment to finish their transaction and answer.
          setTimeout(() => {
            for (const s of sockets) s.destroy();
          }, 2000).unref();
        }).then(() => store.close());
        return closing;
      },
    };
  } catch (e) {
    store.close();
    throw e;
  }
}
