export { type SignableValue, MAX_SIGN_DEPTH, canonicalPairs, canonicalParams, md5Sign, md5Verify } from './md5.js';
export * from './mac.js'; // 5.2: the MAC token, all public
export * from './callback.js';
export { DEFAULT_WINDOW_SECONDS, checkTimestamp, parseUnixSeconds } from './time.js';

// ---- ready-made raw-body handlers (5.3) ----
export {
  type CallbackVerifierOptions,
  type CallbackRequest,
  type VerifiedCall,
  CallbackVerifier,
  CallbackBodyError,
  createCallbackVerifier,
  verifiedCallOf,
} from './handlers/verifier.js';
export { type NonceStore, MemoryNonceStore } from './handlers/nonce-store.js';
export { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readRawBody } from './handlers/raw-body.js';
export { type CallbackHandler, type HandlerHooks, nodeCallbackHandler } from './handlers/node.js';
export { type ExpressLikeRequest, RawBodyUnavailableError, expressCallbackMiddleware } from './handlers/express.js';
export {
  type FastifyLikeInstance,
  type FastifyLikeRequest,
  type FastifyLikeReply,
  type FastifyCallbackHooks,
  installFastifyCallbacks,
} from './handlers/fastify.js';
export { sendAnswer } from './handlers/send-answer.js';

// ---- the platform's public keys, fetched by key id (issue 41) ----
export {
  type PlatformKeySetOptions,
  type PublicKeySource,
  PLATFORM_KEYS_PATH,
  PlatformKeySet,
  PlatformKeysError,
  platformKeySet,
} from './keys/platform-keys.js';

// ---- typed notifications (2.4, 2.5, 6) ----
export { PayloadParseError, type JsonObject } from './notifications/fields.js';
export {
  TrxType,
  Platform,
  PaymentType,
  OrderStatus,
  Channel,
  LoginType,
  SupplyStatus,
} from './notifications/enums.js';
export {
  type Notification,
  type PaymentNotification,
  type RefundNotification,
  type UnknownNotification,
  type NotificationProduct,
  type NotificationAttach,
  parseNotification,
} from './notifications/payment.js';
export { type CancellationNotification, parseCancellationNotification } from './notifications/cancellation.js';

// ---- answers of the game-hosted endpoints (4.7-4.10) ----
export { type Answer } from './answers/answer.js';
export { type NotificationAckBody, acceptNotification, rejectNotification } from './answers/notification-acks.js';
export {
  type Role,
  type RoleListEntry,
  type RoleListBody,
  roleQueryAnswer,
  roleListAnswer,
  roleListFailure,
  parseRoleQuery,
  parseRoleListQuery,
} from './answers/roles.js';
export {
  PreOrderCode,
  type BuiltInPreOrderCode,
  PRE_ORDER_CODE_MEANINGS,
  type PreOrderCheck,
  type PreOrderBlockBody,
  parsePreOrderCheck,
  allowPreOrder,
  blockPreOrder,
} from './answers/pre-order.js';

// ---- client of the service-hosted endpoints (4.1-4.6, pull reconciliation) ----
export { type PlatformClientOptions, PlatformClient } from './client/client.js';
export { PlatformError, PlatformApiError, PlatformNetworkError, PlatformResponseError } from './client/errors.js';
export { type Int64, stringifyJson } from './client/json.js';
export type * from './client/types.js';

// ---- store purchases bound to their buyer (issue 27) ----
export { storeAccountToken } from './stores/account-token.js';
