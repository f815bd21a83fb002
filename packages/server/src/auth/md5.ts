import { md5Verify, type SignableValue } from '@game-platform/sdk';
import type { FastifyRequest } from 'fastify';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { callbackHook, callerOf, type Caller, type CallerApp, type ResolveApp } from './caller.js';
import type { NonceLedger, NonceUse } from './nonce-ledger.js';
import { ReplayGuard } from './replay.js';

const SIGN_PATTERN = /^[0-9a-fA-F]{32}$/;

export interface Md5Deps<A extends CallerApp> {
  resolveApp: ResolveApp<A>;
  /** The active app of a clientId when it is in the cache, at once (auth/mac.ts MacDeps.appNow). */
  appNow?: (clientId: string) => A | undefined;
  replay: ReplayGuard;
  nonces: NonceLedger;
}

export interface Md5RouteOptions {
  /** Where the signed parameters are: the parsed JSON body (POST) or the query (GET), exactly as received. */
  from: 'body' | 'query';
  /** The clientId among them (4.6 names its app by appId: `resolveApp` then answers it by that). */
  clientId: (params: Record<string, unknown>) => unknown;
  /**
   * 'hook': the hook records the nonce (NONCE_REUSED when used). 'store': the
   * route's store records `caller.nonce` in the batch that stores the request
   * (4.1, 4.6: one round trip per batch, not two) and refuses a used one.
   */
  recordNonce: 'hook' | 'store';
  /** Resolves the app from the clientId value; `deps.resolveApp` when absent. */
  resolveApp?: (clientId: unknown) => Promise<CallerApp>;
}

/**
 * The md5 scheme of 5.1 (4.1, 4.2, 4.6, the pull endpoint) as a preHandler
 * per route. Order of checks: shape (400 naming the field), app
 * (UNKNOWN_CLIENT), signature against the current and, during a rotation's
 * grace period, the previous secret (BAD_SIGNATURE), then timestamp window
 * (STALE_TIMESTAMP) and one-time nonce per app (NONCE_REUSED). Only a caller
 * who can sign reaches the checks that write. Attaches `request.caller`.
 */
export function md5Scheme<A extends CallerApp>(deps: Md5Deps<A>) {
  const signedBy = (
    params: Record<string, unknown>,
    app: CallerApp,
    nonce: string,
    timestamp: number,
    sign: string,
  ) => {
    const signable = params as Record<string, SignableValue>;
    if (!app.secrets.some((secret) => md5Verify(signable, secret, sign))) {
      throw new AppError(
        'BAD_SIGNATURE',
        'sign does not match: md5 of the sorted key=value pairs (all parameters except sign, nested keys as dot paths) followed by the app secret; see docs/signing.md',
      );
    }
    return { app, nonce: deps.replay.admit(`md5:${app.appId}`, nonce, timestamp) };
  };
  /** The checks in their order; at once when the app is `known` or in the cache (appNow), else after resolveApp. */
  const verify = (params: Record<string, unknown>, clientId: unknown, known?: CallerApp) => {
    const { nonce, timestamp } = ReplayGuard.checkShape('nonce', params.nonce, 'timestamp', params.timestamp);
    const sign = params.sign;
    if (typeof sign !== 'string' || !SIGN_PATTERN.test(sign))
      throw invalidParameter('sign', 'must be 32 hexadecimal characters (md5, spec 5.1)');
    if (typeof clientId !== 'string' || clientId.length === 0) throw invalidParameter('clientId', 'is required');
    const app = known ?? deps.appNow?.(clientId);
    return app
      ? signedBy(params, app, nonce, timestamp, sign)
      : deps.resolveApp(clientId).then((found) => signedBy(params, found, nonce, timestamp, sign));
  };

  return {
    /** The preHandler of one md5-signed route. */
    hook(route: Md5RouteOptions) {
      const attach = (request: FastifyRequest, { app, nonce }: { app: CallerApp; nonce: NonceUse }) => {
        if (route.recordNonce === 'store') {
          request.caller = { app, nonce, token: null };
          return;
        }
        return deps.nonces.consume(nonce.scope, nonce.nonce, nonce.expiresAt).then((fresh) => {
          if (!fresh) throw ReplayGuard.nonceReused();
          request.caller = { app, nonce: null, token: null };
        });
      };
      return callbackHook((request) => {
        const params = (route.from === 'body' ? request.body : request.query) as Record<string, unknown>;
        const clientId = route.clientId(params);
        // 4.6 names its app by appId: resolved (UNKNOWN_CLIENT) before the shape checks, as it always was.
        const verified = route.resolveApp
          ? route.resolveApp(clientId).then((found) => verify(params, found.clientId, found))
          : verify(params, clientId);
        return verified instanceof Promise ? verified.then((v) => attach(request, v)) : attach(request, verified);
      });
    },
    /** The caller of a route behind `hook`, typed as this scheme's apps. */
    caller(request: FastifyRequest): Caller<A, null> {
      return callerOf<A, null>(request);
    },
  };
}

export type Md5Scheme<A extends CallerApp> = ReturnType<typeof md5Scheme<A>>;
