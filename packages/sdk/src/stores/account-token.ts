import { createHash } from 'node:crypto';

/**
 * The account token the platform binds a store purchase to (issue 27; docs/stores.md "Purchases bound to their
 * buyer"): one per player of an app, the same for every order, a UUID so that it is both StoreKit 2's
 * `appAccountToken` and Play Billing's `obfuscatedAccountId` (at most 64 characters). The platform answers it when a
 * store order is placed (`paymentStep.appAccountToken` / `paymentStep.obfuscatedAccountId`); the client hands it to
 * the store; the store signs it into the transaction; the platform refuses a transaction whose token is another
 * player's. A game server can compute it here to hand its own client (it is no secret: it only has to match).
 *
 * The UUID is the first 16 bytes of SHA-256("game-platform/account-token/v1:{appId}:{userId}") with the RFC 9562
 * version 8 (custom) and variant bits set, lowercase.
 */
export function storeAccountToken(appId: number | string, userId: string): string {
  const b = createHash('sha256')
    .update(`game-platform/account-token/v1:${String(appId)}:${userId}`)
    .digest();
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
