import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { NonceUse } from './nonce-ledger.js';

/**
 * What authentication needs of an app. The app registry's record satisfies
 * it; auth/ knows no domain type, it is handed a resolver (ResolveApp).
 */
export interface CallerApp {
  appId: number;
  clientId: string;
  /** md5 secrets accepted now (5.1): the current one, then the previous one within its grace period. */
  secrets: readonly string[];
  /** The caller IPs allowed for 4.4. */
  allowList: { has(ip: string | undefined): boolean };
  /** Tracing: continue the game's traceparent on its md5-signed requests (http/request-tracing.ts). */
  trustTraceparent?: boolean;
}

/** The active app of a clientId; unknown or disabled ones are refused (UNKNOWN_CLIENT). */
export type ResolveApp<A extends CallerApp = CallerApp> = (clientId: string) => Promise<A>;

/** Who an authenticated request comes from, attached by the auth hooks as `request.caller`. */
export interface Caller<A extends CallerApp = CallerApp, T = unknown> {
  app: A;
  /**
   * Routes whose store records the nonce in its own batch (md5: 4.1, 4.6; MAC: 4.5): the
   * use to record there. Null when the hook recorded it already.
   */
  nonce: NonceUse | null;
  /** MAC (5.2): the token the request was signed with. */
  token: T | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by an auth hook (auth/); null on routes without one. */
    caller: Caller | null;
  }
}

/** Adds `request.caller` (null until an auth hook sets it). Once per server. */
export function decorateCaller(app: FastifyInstance): void {
  app.decorateRequest('caller', null);
}

/** The caller an auth hook attached, typed as the hook's resolver and token lookup answer. */
export function callerOf<A extends CallerApp, T = unknown>(request: FastifyRequest): Caller<A, T> {
  const caller = request.caller;
  if (!caller) throw new Error(`no auth hook ran for ${request.method} ${request.routeOptions.url}`);
  return caller as Caller<A, T>;
}

/**
 * An auth hook as Fastify's callback-style hook: `check` throws its refusal, answers nothing when it decided at once,
 * or a promise when it waits on a lookup or a write. An async hook would cost a promise and a tick on every request
 * even when the app, the token and the nonce check are all at hand (issue 44).
 */
export function callbackHook(
  check: (request: FastifyRequest) => void | Promise<void>,
): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return (request, _reply, done) => {
    let pending;
    try {
      pending = check(request);
    } catch (err) {
      done(asError(err));
      return;
    }
    if (pending)
      pending.then(
        () => done(),
        (err: unknown) => done(asError(err)),
      );
    else done();
  };
}

/** Fastify takes a falsy error for success: whatever was thrown must reach it as an Error. */
const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(`auth hook failed: ${String(err)}`));
