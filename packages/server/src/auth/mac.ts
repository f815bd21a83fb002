import { MacHeaderError, macVerify, parseMacAuthorization, type MacSignInput } from '@game-platform/sdk';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { ReplayGuard } from './replay.js';

/** What a token store answers for a MAC key id (the access token). */
export interface MacToken {
  macKey: string;
  /** Replay scope of the token's nonces, e.g. `mac:<tokenId>`. */
  scope: string;
}

/**
 * The sign base inputs of 5.2 for this request: uri exactly as the client
 * sent it (path and query), host = PUBLIC_HOST, else the Host header without
 * its port (X-Forwarded-Host only from a trusted proxy), port = PUBLIC_PORT.
 */
export function macInputFor(
  request: FastifyRequest,
  services: Pick<Services, 'config'>,
  ts: string,
  nonce: string,
): MacSignInput {
  const { config } = services;
  return {
    ts,
    nonce,
    method: request.method,
    uri: request.url,
    host: config.PUBLIC_HOST ?? request.hostname,
    port: config.PUBLIC_PORT,
  };
}

/**
 * Authenticates a request carrying `Authorization: MAC ...` (5.2, used by 4.3
 * and 4.5). `lookup` finds the token's MAC key by its id (kid); it answers
 * null for unknown, expired or revoked tokens. Every failure is 40300
 * (ILLEGAL_ACCESS_TOKEN, spec section 7) with a detail that tells them apart.
 */
export async function verifyMacRequest<T extends MacToken>(
  request: FastifyRequest,
  services: Pick<Services, 'config' | 'replay'>,
  lookup: (kid: string) => Promise<T | null>,
): Promise<{ kid: string; token: T }> {
  const verified = await verifyMacSignature(request, services, lookup);
  await verified.replay();
  return { kid: verified.kid, token: verified.token };
}

/**
 * verifyMacRequest in two steps: the MAC is verified now, and `replay()`
 * checks the timestamp window and records the one-time nonce. A read-only
 * route may read while the nonce is recorded, and must answer only once
 * `replay()` resolved (see AccountsService.authenticateWhile).
 */
export async function verifyMacSignature<T extends MacToken>(
  request: FastifyRequest,
  services: Pick<Services, 'config' | 'replay'>,
  lookup: (kid: string) => Promise<T | null>,
): Promise<{ kid: string; token: T; replay: () => Promise<void> }> {
  let creds;
  try {
    creds = parseMacAuthorization(request.headers.authorization);
  } catch (err) {
    if (err instanceof MacHeaderError) throw new AppError('ILLEGAL_ACCESS_TOKEN', err.message, { data: '' });
    throw err;
  }
  let shape: { nonce: string; timestamp: number };
  try {
    shape = ReplayGuard.checkShape('nonce', creds.nonce, 'ts', creds.ts);
  } catch (err) {
    throw new AppError('ILLEGAL_ACCESS_TOKEN', `Authorization header: ${(err as AppError).detail}`, { data: '' });
  }
  const token = await lookup(creds.id);
  if (!token)
    throw new AppError('ILLEGAL_ACCESS_TOKEN', 'the access token is unknown, expired or revoked', { data: '' });
  if (!macVerify(macInputFor(request, services, creds.ts, creds.nonce), token.macKey, creds.mac)) {
    throw new AppError(
      'ILLEGAL_ACCESS_TOKEN',
      'mac does not match: HMAC-SHA1 over ts, nonce, method, uri, host and port, each followed by a line feed; see docs/signing.md',
      { data: '' },
    );
  }
  const replay = async (): Promise<void> => {
    try {
      await services.replay.check(token.scope, shape.nonce, shape.timestamp);
    } catch (err) {
      if (err instanceof AppError) throw new AppError('ILLEGAL_ACCESS_TOKEN', err.detail, { data: '' });
      throw err;
    }
  };
  return { kid: creds.id, token, replay };
}
