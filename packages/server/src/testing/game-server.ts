import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallback } from '@game-platform/sdk';
import type { Services } from '../services.js';

/** One request a test game server received, with the outcome of verifying its 5.3 signature. */
export interface GameRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as received. */
  body: string;
  verified: boolean;
  verifyError?: string;
  at: number;
}

export interface GameReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer after this long. */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

export type GameHandler = (req: GameRequest, index: number) => GameReply | Promise<GameReply>;

export interface GameServer {
  /** Base URL, e.g. http://127.0.0.1:12345 */
  url: string;
  requests: GameRequest[];
  handler: GameHandler;
  /** Resolves when `predicate` holds (polled), rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/** The platform public keys by key id, as a game gets them. */
export async function platformPublicKeys(services: Services): Promise<Record<string, string>> {
  const keys = await services.keys.list();
  return Object.fromEntries(keys.filter((k) => k.status !== 'retired').map((k) => [k.kid, k.publicKeyPem]));
}

/**
 * A real game server on 127.0.0.1 (node:http, port 0) that verifies the
 * platform's signature on every request with the SDK's verifyCallback, as a
 * game should, records it and answers as `handler` says (default 200 "ok").
 */
export async function startGameServer(
  publicKeys: Record<string, string>,
  handler: GameHandler = () => ({ status: 200, body: 'ok' }),
): Promise<GameServer> {
  const requests: GameRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const record: GameRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        verified: false,
        at: Date.now(),
      };
      try {
        verifyCallback({ method: record.method, url: record.url, headers: req.headers, body, publicKeys });
        record.verified = true;
      } catch (err) {
        record.verifyError = (err as Error).message;
      }
      const index = requests.push(record) - 1;
      const reply = await game.handler(record, index);
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const game: GameServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    handler,
    async waitFor(predicate, timeoutMs = 10_000, what = 'condition') {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what} (${requests.length} requests seen)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return game;
}
