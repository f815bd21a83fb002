/**
 * One error type for everything the store adapters refuse, with a code saying which check failed: the caller
 * answers a client or a store from the code, never from the message.
 */
export type StoreErrorCode =
  /** The JWS or JWT signature does not match its key (a forged or re-signed payload). */
  | 'bad_signature'
  /** The certificate chain does not lead to a configured root (or lacks Apple's marker extensions). */
  | 'untrusted_chain'
  /** A certificate in the chain is malformed, outside its validity, or the chain has the wrong length. */
  | 'invalid_certificate'
  /** Not a well-formed signed payload or message. */
  | 'malformed'
  /** The token or payload is past its expiry. */
  | 'expired'
  | 'wrong_bundle_id'
  | 'wrong_app_apple_id'
  | 'wrong_package'
  | 'wrong_environment'
  | 'wrong_product'
  /** Pub/Sub push: no bearer token, another audience, another issuer or service account, email not verified. */
  | 'missing_token'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'wrong_service_account'
  /** Google purchase state: only `purchased` pays. */
  | 'purchase_pending'
  | 'purchase_cancelled'
  /** The store refunded or revoked the transaction (Apple revocationDate, a refund or void reported before). */
  | 'revoked'
  /** The transaction's account token (Apple appAccountToken, Google obfuscatedExternalAccountId) is not the player's. */
  | 'wrong_account'
  /** The store does not know this purchase or transaction (404 and the like). */
  | 'not_found'
  /** The store refused our credentials. */
  | 'store_auth_failed'
  /** The store could not be reached or failed: try again later. */
  | 'store_unavailable';

export class StoreVerificationError extends Error {
  override readonly name = 'StoreVerificationError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown; verified?: boolean },
  ) {
    super(`${code}: ${message}`, options);
    this.verified = options?.verified === true;
  }

  /** A field of a payload whose signature or token was verified failed its checks (fields.ts): worth recording. */
  readonly verified: boolean;

  /** Worth retrying later: the store was unreachable, not the payload wrong. */
  get retryable(): boolean {
    return this.code === 'store_unavailable';
  }
}

export function isStoreError(e: unknown, code?: StoreErrorCode): e is StoreVerificationError {
  return e instanceof StoreVerificationError && (code === undefined || e.code === code);
}
