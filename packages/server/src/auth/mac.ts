import { MacHeaderError, macVerify, parseMacAuthorization, type MacSignInput } from '@game-platform/sdk';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { callbackHook, callerOf, type Caller, type CallerApp, type ResolveApp } from './caller.js';
import { ReplayGuard } from './replay.js';

/** What a token store answers for a MAC key id (the access token). */
export interface MacToken {
  macKey: string;
  /** Replay scope of the token's nonces, e.g. `mac:<tokenId>`. */
  scope: string;
}

export interface MacDeps<A extends CallerApp, T extends MacToken> {
  resolveApp: ResolveApp<A>;
  /** The token of a MAC key id (kid); null for unknown, expired or revoked tokens. */
  lookupToken: (kid: string) => Promise<T | null>;
  /**
   * The token store's own rules, checked once the mac proved the caller holds
   * the key (revoked, expired, issued for another app): answers the detail of
   * the 40300 to refuse with, or null.
   */
  refuseToken?: (token: T, app: A) => string | null;
  replay: ReplayGuard;
  /**
   * What resolveApp and lookupToken answer when it is in their caches, at once (undefined when it is not, or when
   * resolveApp would refuse the app): the hot path of a signed request then makes no promise (issue 44).
   */
  appNow?: (clientId: string) => A | undefined;
  tokenNow?: (kid: string) => T | undefined;
  /** PUBLIC_HOST: the host clients sign; unset: the Host header without its port. */
  publicHost: string | undefined;
  /** PUBLIC_PORT: the port clients sign. */
  publicPort: number;
}

export interface MacRouteOptions {
  /** The clientId the token is checked against (in the query, which the MAC covers). */
  clientId: (request: FastifyRequest) => string;
  /**
   * 'await': the hook checks timestamp and nonce before the route runs.
   * 'store': the hook checks the timestamp and leaves the nonce in `caller.nonce` for the route's store to record in
   * the statement that serves the request (4.5: one statement a batch records the nonces and reads the arrears); a
   * used nonce is then refused with `macNonceReused()`.
   */
  replay: 'await' | 'store';
}

type Shape = { nonce: string; timestamp: number };

const illegal = (detail: string) => new AppError('ILLEGAL_ACCESS_TOKEN', detail, { data: '' });

/**
 * The sign base inputs of 5.2 for this request: uri exactly as the client
 * sent it (path and query), host = PUBLIC_HOST, else the Host header without
 * its port (X-Forwarded-Host only from a trusted proxy), port = PUBLIC_PORT.
 */
export function macInputFor(
  request: FastifyRequest,
  publicHost: string | undefined,
  publicPort: number,
  ts: string,
  nonce: string,
): MacSignInput {
  return {
    ts,
    nonce,
    method: request.method,
    uri: request.url,
    host: publicHost ?? request.hostname,
    port: publicPort,
  };
}

/**
 * The MAC scheme of 5.2 (4.3, 4.5, order placement, the client API) as a hook
 * per route. Order: unknown/disabled clientId -> 40105 (UNKNOWN_CLIENT); then
 * every token failure is 40300 (ILLEGAL_ACCESS_TOKEN, spec section 7) with a
 * detail that tells them apart: malformed/missing header, unknown token, bad
 * mac, then (refuseToken) revoked, expired, another app's, then stale ts and
 * reused nonce. Attaches `request.caller` with the app and the token.
 */
export function macScheme<A extends CallerApp, T extends MacToken>(deps: MacDeps<A, T>) {
  // The header's credentials and their shape: a 40300 when either is malformed.
  const credentialsOf = (request: FastifyRequest) => {
    let creds;
    try {
      creds = parseMacAuthorization(request.headers.authorization);
    } catch (err) {
      if (err instanceof MacHeaderError) throw illegal(err.message);
      throw err;
    }
    try {
      return { creds, shape: ReplayGuard.checkShape('nonce', creds.nonce, 'ts', creds.ts) };
    } catch (err) {
      throw illegal(`Authorization header: ${(err as AppError).detail}`);
    }
  };
  // The token's checks once it is known: unknown, bad mac, then the store's own rules; answers the token.
  const checkToken = (
    request: FastifyRequest,
    app: A,
    token: T | null,
    creds: { ts: string; nonce: string; mac: string },
  ): T => {
    if (!token) throw illegal('the access token is unknown, expired or revoked');
    if (
      !macVerify(macInputFor(request, deps.publicHost, deps.publicPort, creds.ts, creds.nonce), token.macKey, creds.mac)
    ) {
      throw illegal(
        'mac does not match: HMAC-SHA1 over ts, nonce, method, uri, host and port, each followed by a line feed; see docs/signing.md',
      );
    }
    const refused = deps.refuseToken?.(token, app);
    if (refused) throw illegal(refused);
    return token;
  };
  const verify = async (request: FastifyRequest, clientId: string) => {
    const app = await deps.resolveApp(clientId);
    const { creds, shape } = credentialsOf(request);
    const token = checkToken(request, app, await deps.lookupToken(creds.id), creds);
    return { app, token, shape };
  };
  // The same checks in the same order, without a promise, when the app and the token are both in their caches;
  // undefined when one is not (then `verify`).
  const verifyNow = (request: FastifyRequest, clientId: string) => {
    const app = deps.appNow?.(clientId);
    if (app === undefined) return undefined;
    const { creds, shape } = credentialsOf(request);
    const cached = deps.tokenNow?.(creds.id);
    if (cached === undefined) return undefined;
    return { app, token: checkToken(request, app, cached, creds), shape };
  };
  // Every replay refusal of 5.2 is a 40300 with the replay guard's detail.
  const asIllegal = (err: unknown) => (err instanceof AppError ? illegal(err.detail) : err);

  /** A MAC route's check: throws its refusal, or answers a promise only when it waits on a lookup or the nonce. */
  const check = (route: MacRouteOptions): ((request: FastifyRequest) => void | Promise<void>) => {
    const admit = (request: FastifyRequest, { app, token, shape }: { app: A; token: T; shape: Shape }) => {
      if (route.replay === 'await') {
        return deps.replay.check(token.scope, shape.nonce, shape.timestamp).then(
          () => void (request.caller = { app, nonce: null, token }),
          (err: unknown) => Promise.reject(asIllegal(err)),
        );
      }
      let nonce;
      try {
        nonce = deps.replay.admit(token.scope, shape.nonce, shape.timestamp);
      } catch (err) {
        throw asIllegal(err);
      }
      request.caller = { app, nonce, token };
    };
    return (request) => {
      const clientId = route.clientId(request);
      const now = verifyNow(request, clientId);
      return now ? admit(request, now) : verify(request, clientId).then((v) => admit(request, v));
    };
  };

  return {
    /** The hook of one MAC-signed route (preHandler, or preValidation after the query's own validation). */
    hook: (route: MacRouteOptions) => callbackHook(check(route)),
    /** The hook's check, for a hook that does more first (accounts/client.routes.ts). */
    check,
    /** The caller of a route behind `hook`, typed as this scheme's apps and tokens. */
    caller(request: FastifyRequest): Caller<A, T> & { token: T } {
      return callerOf<A, T>(request) as Caller<A, T> & { token: T };
    },
  };
}

export type MacScheme<A extends CallerApp, T extends MacToken> = ReturnType<typeof macScheme<A, T>>;

/** The refusal of a MAC route whose store found the request's nonce used ('store' replay). */
export function macNonceReused(): AppError {
  return illegal(ReplayGuard.nonceReused().detail);
}
