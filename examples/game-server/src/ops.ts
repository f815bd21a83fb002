/**
 * The game's own operator endpoints (not called by the platform), behind a bearer
 * token: status, key refresh, creating a role and spending items (stand-ins for
 * the game itself) and a player's state. Off unless OPS_TOKEN is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, readRawBody, sendAnswer } from '@game-platform/sdk';
import type { CallCounters } from './platform-calls.js';
import type { PlatformKeyRing } from './platform-keys.js';
import { parseRoleInput } from './roles.js';
import type { GameStore } from './store.js';

export interface OpsDeps {
  token: string;
  store: GameStore;
  keys: PlatformKeyRing;
  counters: CallCounters;
  log: (line: string) => void;
}

type Reply = { status: number; body: unknown };

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
const ID = /^[A-Za-z0-9_.:-]{1,64}$/;

function problem(status: number, error: string): Reply {
  return { status, body: { error } };
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readRawBody(req, 64 * 1024);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function opsHandler(deps: OpsDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const expected = digest(`Bearer ${deps.token}`);

  async function route(req: IncomingMessage, path: string): Promise<Reply> {
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/ops/status') {
      return {
        status: 200,
        body: { keyIds: Object.keys(deps.keys.keys), stored: deps.store.counts(), calls: deps.counters },
      };
    }
    if (method === 'POST' && path === '/ops/platform-keys/refresh') {
      try {
        const keyIds = await deps.keys.refresh();
        deps.log(`platform keys refreshed: ${keyIds.join(', ')}`);
        return { status: 200, body: { keyIds } };
      } catch (e) {
        return problem(502, `refresh failed: ${(e as Error).message}`);
      }
    }
    if (method === 'POST' && path === '/ops/roles') {
      const role = parseRoleInput(await jsonBody(req));
      if (typeof role === 'string') return problem(400, role);
      deps.store.upsertRole(role);
      deps.log(`role ${role.roleId} on ${role.serverId} created for user ${role.userId}`);
      return { status: 201, body: role };
    }
    const player = /^\/ops\/players\/([^/]+)(\/spend)?$/.exec(path);
    if (player) {
      const userId = decodeURIComponent(player[1]!);
      if (!ID.test(userId)) return problem(400, 'userId: must be 1-64 of A-Z a-z 0-9 _ . : -');
      if (method === 'GET' && !player[2]) return { status: 200, body: deps.store.player(userId) };
      if (method === 'POST' && player[2]) {
        const b = (await jsonBody(req)) as Record<string, unknown> | undefined;
        if (!b || typeof b !== 'object') return problem(400, 'body: must be a JSON object');
        for (const k of ['roleId', 'serverId', 'item'] as const)
          if (typeof b[k] !== 'string' || !ID.test(b[k] as string))
            return problem(400, `${k}: must be 1-64 of A-Z a-z 0-9 _ . : -`);
        if (!Number.isSafeInteger(b.quantity) || (b.quantity as number) < 1)
          return problem(400, 'quantity: must be a positive whole number');
        const owner = { userId, roleId: b.roleId as string, serverId: b.serverId as string };
        if (!deps.store.spend(owner, b.item as string, b.quantity as number))
          return problem(409, `the role has fewer than ${b.quantity} ${b.item}`);
        deps.log(`role ${owner.roleId} spent ${b.quantity} ${b.item}`);
        return { status: 200, body: { spent: { [b.item as string]: b.quantity } } };
      }
    }
    return problem(404, 'not found');
  }

  return async (req, res) => {
    const given = req.headers.authorization;
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      sendAnswer(res, problem(401, 'missing or wrong ops token'));
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    try {
      sendAnswer(res, await route(req, path));
    } catch (e) {
      if (e instanceof BodyTooLargeError) {
        res.setHeader('connection', 'close');
        sendAnswer(res, problem(413, e.message));
        return;
      }
      deps.log(`ops ${req.method} ${path} failed: ${(e as Error).message}`);
      if (!res.headersSent) sendAnswer(res, problem(500, 'internal error'));
    }
  };
}
