import assert from 'node:assert/strict';
import { guestLogin, macRequest, type Login } from '../accounts/accounts.js';
import { FAST } from '../delivery/delivery.js';
import { platformPublicKeys, startGameServer, type GameReply, type GameServer } from '../game-server.js';
import { startTestService, type TestService, type TestServiceOptions } from '../service.js';

/** Helpers of the web payment page tests: a real service and a real game fixture on loopback. */

export interface GameRole {
  userId?: string;
  name: string;
  avatar?: string;
  roleLv?: number;
  serverName?: string;
}

/** What the fixture game answers; tests change it between steps. */
export interface GameState {
  /** Roles by `${serverId}/${roleId}` (4.8, 4.9). */
  roles: Map<string, GameRole>;
  /** A reply that replaces the role list answer (4.9), e.g. a 500 with a msg. */
  roleListReply: GameReply | null;
  /** The pre-order check's answer (4.10) to one line. */
  preOrder: (line: { productSkuCode: string; quantity: number; roleId: string; serverId: string }) => GameReply;
  /** Drop the connection of role queries (an unreachable game). */
  roleQueryDown: boolean;
  /** A reply that replaces the role query's answer (4.8), e.g. a 500 or garbage. */
  roleReply: GameReply | null;
}

export interface WebPayFixture {
  svc: TestService;
  game: GameServer;
  state: GameState;
  /** An overseas app with products (USD gems and pass) and a mainland app with the same. */
  overseas: any;
  mainland: any;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): GameReply => ({ status, body: JSON.stringify(body) });

export async function startWebPay(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<WebPayFixture> {
  const svc = await startTestService({ ...FAST, SANDBOX_PAYMENTS: 'true', SANDBOX_LOGIN: 'true', ...env }, opts);
  const state: GameState = {
    roles: new Map(),
    roleListReply: null,
    preOrder: () => ({ status: 200, body: '' }),
    roleQueryDown: false,
    roleReply: null,
  };
  const game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
    const url = new URL(req.url, 'http://game');
    const q = url.searchParams;
    if (url.pathname === '/role') {
      if (state.roleQueryDown) return { destroy: true };
      if (state.roleReply) return state.roleReply;
      const role = state.roles.get(`${q.get('serverId')}/${q.get('roleId')}`);
      if (!role) return json(404, { code: 101, msg: 'no such role', detail: 'unknown role id' });
      return json(200, { roleId: q.get('roleId'), avatar: '', ...role, serverId: q.get('serverId') });
    }
    if (url.pathname === '/roles') {
      if (state.roleListReply) return state.roleListReply;
      const results = [...state.roles]
        .filter(([key, r]) => r.userId === q.get('userId') && key.startsWith(`${q.get('serverId')}/`))
        .map(([key, r]) => ({
          roleId: key.split('/')[1],
          name: r.name,
          avatar: r.avatar ?? '',
          roleLv: r.roleLv ?? null,
          serverId: q.get('serverId'),
        }));
      return results.length === 0
        ? json(401, { code: 401, msg: 'no role', detail: 'none', results: [] })
        : json(200, { code: 200, msg: 'ok', detail: '', results });
    }
    if (url.pathname === '/pre-order') return state.preOrder(JSON.parse(req.body));
    return { status: 200, body: '' };
  });
  const appBody = (name: string, region: string) => ({
    name,
    region,
    callbackUrls: { default: `${game.url}/cb` },
    roleQueryUrl: `${game.url}/role`,
    roleListUrl: `${game.url}/roles`,
    preOrderCheckUrl: `${game.url}/pre-order`,
  });
  const overseas = await withProducts(svc, await svc.createApp(appBody('Dragon Saga', 'overseas')));
  const mainland = await withProducts(svc, await svc.createApp(appBody('Mainland Saga', 'mainland')));
  return {
    svc,
    game,
    state,
    overseas,
    mainland,
    async close() {
      await svc.close();
      await game.close();
    },
  };
}

async function withProducts(svc: TestService, app: any) {
  for (const p of [
    { productCode: 'gems_100', name: '100 gems', price: '4.99', currency: 'USD' },
    { productCode: 'pass', name: 'Season pass', price: '9.90', currency: 'USD' },
  ]) {
    const res = await svc.admin('POST', `/apps/${app.appId}/products`, p);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  return app;
}

/** A guest player of `app` and a launch link for its role (POST /order/v1/client/pay-links, MAC). */
export async function launchLink(
  f: WebPayFixture,
  app: any,
  role: { roleId: string; serverId: string; gameExt?: string; lang?: string },
  login?: Login,
): Promise<{ login: Login; url: string; status: number; body: any }> {
  const player = login ?? (await guestLogin(f.svc, app.clientId));
  const res = await macRequest(f.svc, 'POST', `/order/v1/client/pay-links?clientId=${app.clientId}`, player, {
    body: {
      game_role_id: role.roleId,
      game_server_id: role.serverId,
      ...(role.gameExt !== undefined ? { game_ext: role.gameExt } : {}),
      ...(role.lang !== undefined ? { lang: role.lang } : {}),
    },
  });
  return { login: player, url: res.body?.data?.url, status: res.status, body: res.body };
}

/** A page session over plain HTTP (the cookie kept by hand): for the API tests. */
export class PageClient {
  cookie = '';
  csrf = '';
  constructor(
    private readonly svc: TestService,
    readonly clientId: string,
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: any }> {
    const res = await this.svc.fetch(`/pay/api/${this.clientId}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    this.keep(res);
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }

  keep(res: Response): void {
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
  }

  async context() {
    const res = await this.request('GET', '/context');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    this.csrf = res.body.data.csrf;
    return res.body.data;
  }

  /** Opens a launch link (path and query of its URL): the answer's redirect and the session it set. */
  async open(url: string) {
    const u = new URL(url);
    const res = await this.svc.fetch(u.pathname + u.search, { redirect: 'manual' });
    this.keep(res);
    return { status: res.status, location: res.headers.get('location'), setCookie: res.headers.get('set-cookie') };
  }
}
