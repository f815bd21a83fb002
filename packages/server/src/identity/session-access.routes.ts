import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto/secret-box.js';
import { AppError } from '../errors/app-error.js';
import type { AuditContext } from './people.service.js';

/**
 * What the console's and the portal's access hooks (operators/admin-access.routes.ts, portal/portal-access.routes.ts)
 * read of a request the same way: its audit context, a session cookie, and the CSRF header of a change.
 */

export function auditContext(request: FastifyRequest): AuditContext {
  return {
    ip: request.ip,
    requestId: request.id,
    method: request.method,
    route: request.routeOptions.url ?? request.url,
    path: request.url.split('?')[0]!,
  };
}

/** The value of cookie `name` in the Cookie header, if any. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** A session cookie `name` sent to `path` only: HttpOnly, SameSite=Strict, Secure unless reached on loopback. */
export function scopedCookie(
  request: FastifyRequest,
  cookie: { name: string; path: string },
  value: string,
  maxAgeSeconds: number,
): string {
  const secure = LOOPBACK.has(request.hostname.replace(/:\d+$/, '')) ? '' : '; Secure';
  return `${cookie.name}=${value}; Path=${cookie.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

export function setScopedCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: { name: string; path: string },
  value: string,
  maxAgeSeconds: number,
) {
  reply.header('set-cookie', scopedCookie(request, cookie, value, maxAgeSeconds));
}

/**
 * Why a request of a session must be refused for its CSRF header (every method but GET and HEAD must bring the
 * session's X-CSRF-Token, compared in constant time), or null.
 */
export function csrfProblem(request: FastifyRequest, csrfToken: string): string | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const sent = request.headers['x-csrf-token'];
  if (typeof sent === 'string' && safeEqual(sent, csrfToken)) return null;
  return sent === undefined ? 'no X-CSRF-Token' : 'wrong X-CSRF-Token';
}

/** How a sign-in area (the console, the portal) refuses and records what `sessionPrincipalOf` finds wrong. */
export interface SessionRefusals<P> {
  /** The refusal of a request with no session cookie (`missing`) or one whose session has ended (`ended`), recorded. */
  refuse(why: 'missing' | 'ended'): Promise<AppError>;
  /** Records a CSRF refusal of the signed-in person `principal` (then answered 403 CSRF_REFUSED). */
  csrfRefused(principal: P, problem: string): Promise<void>;
}

/**
 * The signed-in person of a request's session cookie, for the console and the portal alike: refused when the cookie
 * is missing or its session has ended, and when a request that changes something lacks the session's X-CSRF-Token.
 */
export async function sessionPrincipalOf<P extends { csrfToken?: string | null }>(
  request: FastifyRequest,
  cookieName: string,
  sessionPrincipal: (cookie: string) => Promise<P | null>,
  refusals: SessionRefusals<P>,
): Promise<P> {
  const cookie = cookieValue(request, cookieName);
  if (cookie === undefined) throw await refusals.refuse('missing');
  const principal = await sessionPrincipal(cookie);
  if (!principal) throw await refusals.refuse('ended');
  const csrf = csrfProblem(request, principal.csrfToken as string);
  if (csrf) {
    await refusals.csrfRefused(principal, csrf);
    throw new AppError('CSRF_REFUSED');
  }
  return principal;
}
