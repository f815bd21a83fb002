/**
 * The raw-body handlers on node:http, Express (reading the stream; express.raw in a
 * mounted router) and Fastify, over real HTTP: verified calls reach the game's
 * handler with the exact bytes; every kind of forgery gets 401 and never does.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http, { type Server } from 'node:http';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  nodeCallbackHandler,
  expressCallbackMiddleware,
  installFastifyCallbacks,
  createCallbackVerifier,
  verifiedCallOf,
  type VerifiedCall,
  type CallbackVerifierOptions,
} from '../index.js';
import { close, KEY_ID, listen, other, PAYMENT_BODY, publicKey, send, type SendOptions } from './handlers.testlib.js';

interface Setup {
  base: string;
  calls: VerifiedCall[];
  rejected: Error[];
  stop: () => Promise<void>;
}

const options = (rejected: Error[]): CallbackVerifierOptions & { onRejected: (e: Error) => void } => ({
  publicKeys: { [KEY_ID]: publicKey },
  maxBodyBytes: 64 * 1024,
  onRejected: (e) => rejected.push(e),
});

const answerOf = (call: VerifiedCall) => ({ ok: true, path: call.path, json: call.json });

async function nodeSetup(): Promise<Setup> {
  const calls: VerifiedCall[] = [];
  const rejected: Error[] = [];
  const server = http.createServer(
    nodeCallbackHandler(options(rejected), (call, req) => {
      assert.equal(verifiedCallOf(req), call);
      calls.push(call);
      return { status: 200, body: answerOf(call) };
    }),
  );
  return { base: await listen(server), calls, rejected, stop: () => close(server) };
}

async function expressStreamSetup(): Promise<Setup> {
  const calls: VerifiedCall[] = [];
  const rejected: Error[] = [];
  const app = express();
  app.set('env', 'test'); // no error logging to stderr from express's final handler
  app.use(expressCallbackMiddleware(options(rejected)));
  const h = (req: express.Request, res: express.Response): void => {
    const call = verifiedCallOf(req);
    assert.deepEqual(req.body, call.json);
    calls.push(call);
    res.json(answerOf(call));
  };
  app.post('/pay/callback', h);
  app.get('/game/role', h);
  const server = http.createServer(app);
  return { base: await listen(server), calls, rejected, stop: () => close(server) };
}

/** express.raw() first, inside routers mounted under a path (req.url lacks the mount path; the platform signed the full one). */
async function expressRawRouterSetup(): Promise<Setup> {
  const calls: VerifiedCall[] = [];
  const rejected: Error[] = [];
  const verifier = createCallbackVerifier(options(rejected)); // one nonce store for both routers
  const mw = expressCallbackMiddleware(verifier, { onRejected: (e) => rejected.push(e) });
  const h = (req: express.Request, res: express.Response): void => {
    calls.push(verifiedCallOf(req));
    res.json(answerOf(verifiedCallOf(req)));
  };
  const pay = express.Router();
  pay.use(express.raw({ type: '*/*', limit: '64kb' }), mw);
  pay.post('/callback', h);
  const game = express.Router();
  game.use(mw);
  game.get('/role', h);
  const app = express();
  app.set('env', 'test');
  app.use('/pay', pay);
  app.use('/game', game);
  const server = http.createServer(app);
  return { base: await listen(server), calls, rejected, stop: () => close(server) };
}

async function fastifySetup(): Promise<Setup> {
  const calls: VerifiedCall[] = [];
  const rejected: Error[] = [];
  const app: FastifyInstance = Fastify();
  await app.register(async (scope) => {
    installFastifyCallbacks(scope, options(rejected));
    const h = async (request: { body: unknown }) => {
      const call = verifiedCallOf(request);
      assert.deepEqual(request.body, call.json);
      calls.push(call);
      return answerOf(call);
    };
    scope.post('/pay/callback', h);
    scope.get('/game/role', h);
  });
  // A route outside the scope keeps Fastify's normal JSON parsing and is not verified.
  app.post('/other', async (request) => ({ parsed: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return { base: `http://127.0.0.1:${port}`, calls, rejected, stop: () => app.close() };
}

const setups: [string, () => Promise<Setup>][] = [
  ['node:http', nodeSetup],
  ['Express, reading the stream', expressStreamSetup],
  ['Express, express.raw in mounted routers', expressRawRouterSetup],
  ['Fastify', fastifySetup],
];

const now = () => Math.floor(Date.now() / 1000);
const pay = (o: Partial<SendOptions> = {}): SendOptions => ({ path: '/pay/callback', body: PAYMENT_BODY, ...o });

for (const [name, setup] of setups) {
  describe(`raw-body handler on ${name}`, () => {
    let s: Setup;
    before(async () => {
      s = await setup();
    });
    after(() => s.stop());
    beforeEach(() => {
      s.calls.length = 0;
      s.rejected.length = 0;
    });

    /** Asserts a 401 with the reason, and that the game's handler was not called. */
    async function refused(o: SendOptions, reason: string): Promise<void> {
      const r = await send(s.base, o);
      assert.equal(r.status, 401, JSON.stringify(r.json));
      assert.deepEqual(r.json, { code: 401, msg: 'signature verification failed', detail: reason });
      assert.equal(s.calls.length, 0, 'the game handler must not be called');
      assert.equal(s.rejected.length, 1);
    }

    it('hands a verified POST to the handler with the exact bytes and the parsed JSON', async () => {
      const r = await send(s.base, pay());
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.equal(s.calls.length, 1);
      const call = s.calls[0]!;
      assert.equal(call.rawBody.toString('utf8'), PAYMENT_BODY);
      assert.equal(call.keyId, KEY_ID);
      assert.equal(call.method, 'POST');
      assert.equal(call.path, '/pay/callback');
      assert.equal(call.nonce, r.sentHeaders.Nonce);
      assert.equal((call.json as { trxNo: number }).trxNo, 42);
      assert.deepEqual(r.json, { ok: true, path: '/pay/callback', json: JSON.parse(PAYMENT_BODY) });
    });

    it('verifies a GET with an empty body; the query is not signed but is handed over', async () => {
      const r = await send(s.base, {
        method: 'GET',
        path: '/game/role?roleId=r%201&serverId=s1',
        sign: { path: '/game/role' },
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      const call = s.calls[0]!;
      assert.equal(call.rawBody.length, 0);
      assert.equal(call.json, undefined);
      assert.equal(call.query.get('roleId'), 'r 1');
      assert.equal(call.query.get('serverId'), 's1');
    });

    it('takes any content type as raw bytes', async () => {
      const r = await send(s.base, pay({ headers: { 'content-type': 'text/plain; charset=utf-8' } }));
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.equal(s.calls[0]!.rawBody.toString('utf8'), PAYMENT_BODY);
    });

    it('accepts a call without Key-Id when one key is configured', async () => {
      const r = await send(s.base, pay({ sign: { keyId: null } }));
      assert.equal(r.status, 200);
      assert.equal(s.calls[0]!.keyId, KEY_ID);
    });

    it('refuses a changed body', () =>
      refused(pay({ sign: { body: PAYMENT_BODY.replace('"trxNo":42', '"trxNo":43') } }), 'bad_signature'));
    it('refuses a re-serialised body (same JSON, other bytes)', () =>
      refused(pay({ sign: { body: JSON.stringify(JSON.parse(PAYMENT_BODY)) } }), 'bad_signature'));
    it('refuses a changed path', () => refused(pay({ sign: { path: '/pay/other' } }), 'bad_signature'));
    it('refuses a stale timestamp', () => refused(pay({ sign: { timestamp: now() - 301 } }), 'stale_timestamp'));
    it('refuses a timestamp from the future', () =>
      refused(pay({ sign: { timestamp: now() + 400 } }), 'stale_timestamp'));
    it('refuses a Timestamp header changed after signing', async () => {
      const ts = now();
      await refused(pay({ sign: { timestamp: ts }, headers: { Timestamp: String(ts - 1) } }), 'bad_signature');
    });
    it('refuses a signature by another key', () =>
      refused(pay({ sign: { privateKey: other.privateKey } }), 'bad_signature'));
    it('refuses an unknown key id', () => refused(pay({ sign: { keyId: 'platform-retired-0' } }), 'unknown_key'));
    it('refuses a call without Signature', () => refused(pay({ headers: { Signature: undefined } }), 'missing_header'));
    it('refuses a malformed Signature', () =>
      refused(pay({ headers: { Signature: 'not base64!' } }), 'malformed_header'));
    it('refuses a changed method', () =>
      refused(
        { method: 'GET', path: '/game/role?roleId=r1&serverId=s1', sign: { method: 'POST', path: '/game/role' } },
        'bad_signature',
      ));
    it('refuses a replay of the same signed call', async () => {
      const first = await send(s.base, pay());
      assert.equal(first.status, 200);
      s.calls.length = 0;
      s.rejected.length = 0;
      await refused(pay({ reuse: first.sentHeaders }), 'replayed_nonce');
    });
    it('answers 400 to a verified body that is not JSON, without calling the handler', async () => {
      const r = await send(s.base, pay({ body: '{"trxNo":' }));
      assert.equal(r.status, 400);
      assert.equal(s.calls.length, 0);
    });
    it('answers 413 to a body over maxBodyBytes, without calling the handler', async () => {
      const big = JSON.stringify({ pad: 'x'.repeat(70 * 1024) });
      const r = await send(s.base, pay({ body: big }));
      assert.equal(r.status, 413);
      assert.equal(s.calls.length, 0);
    });
  });
}

describe('handler specifics', () => {
  it('node:http: a handler that throws gives 500; one that answers nothing gives 500, never an accidental accept', async () => {
    const errors: unknown[] = [];
    let mode: 'throw' | 'nothing' | 'writes' = 'throw';
    const server = http.createServer(
      nodeCallbackHandler({ publicKeys: publicKey, onError: (e) => errors.push(e) }, (_call, _req, res) => {
        if (mode === 'throw') throw new Error('database down');
        if (mode === 'writes') {
          res.statusCode = 204;
          res.end();
        }
      }),
    );
    const base = await listen(server);
    try {
      const r1 = await send(base, pay());
      assert.equal(r1.status, 500);
      assert.match(String(errors[0]), /database down/);
      mode = 'nothing';
      const r2 = await send(base, pay());
      assert.equal(r2.status, 500);
      assert.match(String(errors[1]), /returned no Answer/);
      mode = 'writes';
      const r3 = await send(base, pay());
      assert.equal(r3.status, 204);
      assert.equal(errors.length, 2);
    } finally {
      await close(server);
    }
  });

  it('Express: a body already parsed by express.json() is a set-up error (500), and the handler is not called', async () => {
    let called = 0;
    let seen: unknown;
    const app = express();
    app.set('env', 'test');
    app.use(express.json());
    app.post('/pay/callback', expressCallbackMiddleware({ publicKeys: publicKey }), (_req, res) => {
      called++;
      res.json({});
    });
    app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen = err;
      res.status(500).json({ error: (err as Error).name });
    });
    const server = http.createServer(app);
    const base = await listen(server);
    try {
      const r = await send(base, pay());
      assert.equal(r.status, 500);
      assert.equal((seen as Error).name, 'RawBodyUnavailableError');
      assert.equal(called, 0);
      // A GET has no body, so a JSON parser before it does no harm.
      const g = await send(base, { method: 'GET', path: '/pay/callback' });
      assert.equal(g.status, 404);
    } finally {
      await close(server);
    }
  });

  it('Fastify: routes outside the encapsulated scope keep normal JSON parsing and no verification', async () => {
    const s = await fastifySetup();
    try {
      const r = await fetch(`${s.base}/other`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      assert.deepEqual(await r.json(), { parsed: { a: 1 } });
      assert.equal(s.calls.length, 0);
    } finally {
      await s.stop();
    }
  });

  it('several keys by id (rotation): each Key-Id selects its key; a retired id is refused', async () => {
    const calls: VerifiedCall[] = [];
    const otherPem = other.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const server = http.createServer(
      nodeCallbackHandler({ publicKeys: { [KEY_ID]: publicKey, 'platform-next': otherPem } }, (call) => {
        calls.push(call);
        return { status: 204 };
      }),
    );
    const base = await listen(server);
    try {
      assert.equal((await send(base, pay())).status, 204);
      assert.equal(
        (await send(base, pay({ sign: { privateKey: other.privateKey, keyId: 'platform-next' } }))).status,
        204,
      );
      assert.equal((await send(base, pay({ sign: { privateKey: other.privateKey, keyId: null } }))).status, 204);
      assert.deepEqual(
        calls.map((c) => c.keyId),
        [KEY_ID, 'platform-next', 'platform-next'],
      );
      assert.equal((await send(base, pay({ sign: { privateKey: other.privateKey, keyId: KEY_ID } }))).status, 401);
      assert.equal((await send(base, pay({ sign: { keyId: 'platform-old' } }))).status, 401);
      assert.equal(calls.length, 3);
    } finally {
      await close(server);
    }
  });
});
