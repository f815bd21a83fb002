import { md5Verify, type SignableValue } from '@game-platform/sdk';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { Services } from '../services.js';
import type { NonceUse } from './nonces.js';
import { ReplayGuard } from './replay.js';

const SIGN_PATTERN = /^[0-9a-fA-F]{32}$/;

/**
 * Authenticates a request signed with the md5 scheme of 5.1 (4.1, 4.2, 4.6).
 * `params` is every request parameter exactly as received (the parsed JSON
 * body, or the query). Order of checks: shape (400 naming the field), app
 * (UNKNOWN_CLIENT), signature against the current and, during a rotation's
 * grace period, the previous secret (BAD_SIGNATURE), then timestamp window
 * (STALE_TIMESTAMP) and one-time nonce per app (NONCE_REUSED). Only a caller
 * who can sign reaches the checks that write.
 */
export async function verifyMd5Request(
  services: Services,
  params: Record<string, unknown>,
  clientId: string | undefined,
): Promise<AppRecord> {
  const { app, nonce } = await verifyMd5Signature(services, params, clientId);
  if (!(await services.nonces.consume(nonce.scope, nonce.nonce, nonce.expiresAt))) throw ReplayGuard.nonceReused();
  return app;
}

/**
 * verifyMd5Request but for the nonce, which the caller records in the
 * transaction that stores the request (and refuses with
 * ReplayGuard.nonceReused() when it was used): one round trip less for a
 * write route.
 */
export async function verifyMd5Signature(
  services: Services,
  params: Record<string, unknown>,
  clientId: string | undefined,
): Promise<{ app: AppRecord; nonce: NonceUse }> {
  const { nonce, timestamp } = ReplayGuard.checkShape('nonce', params.nonce, 'timestamp', params.timestamp);
  const sign = params.sign;
  if (typeof sign !== 'string' || !SIGN_PATTERN.test(sign))
    throw invalidParameter('sign', 'must be 32 hexadecimal characters (md5, spec 5.1)');
  if (typeof clientId !== 'string' || clientId.length === 0) throw invalidParameter('clientId', 'is required');
  const app = await services.apps.requireActive(clientId);
  const signable = params as Record<string, SignableValue>;
  if (!app.secrets.some((secret) => md5Verify(signable, secret, sign))) {
    throw new AppError(
      'BAD_SIGNATURE',
      'sign does not match: md5 of the sorted key=value pairs (all parameters except sign, nested keys as dot paths) followed by the app secret; see docs/signing.md',
    );
  }
  return { app, nonce: services.replay.admit(`md5:${app.appId}`, nonce, timestamp) };
}
