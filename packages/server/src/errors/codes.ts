/**
 * The one error vocabulary of the service. Every error a route can answer is
 * listed here once, one line a code: `REASON: [code, grpc, msg]`, where
 *  - `code`: the numeric code of the 2.3 envelope (account, order and admin routes).
 *    Codes from spec section 7 keep their numbers; ours follow the same scheme.
 *  - `grpc`: the google.rpc.Code of the rpcStatus envelope (reporting routes),
 *    with the HTTP status grpc-gateway gives that code.
 *  - `msg`: the player/developer-facing message.
 * The HTTP status is not written: the rule is that it is the first three digits
 * of `code` (40300 -> 403), so a client can tell one from the other, and
 * `ErrorCodes` derives it.
 * docs/errors.md documents every entry; a test keeps the two in step.
 */
// One line a code, even past the print width: it reads as the table it is.
// prettier-ignore
const table = {
  // --- spec section 7 ---
  ILLEGAL_ACCESS_TOKEN: [40300, 16, 'Illegal access token.'],
  ILLEGAL_USER_ID: [40103, 5, 'Illegal user id.'],
  EMAIL_NOT_VERIFIED: [40021, 9, 'The bound email of this account is not verified.'],
  EMAIL_BOUND_TO_LOGIN_TYPE: [40902, 6, 'The email of this login is already bound to this login type.'],
  EMAIL_BOUND_TO_SEVERAL_ACCOUNTS: [40901, 6, 'Several accounts are bound to this email; it cannot be bound automatically.'],

  // --- request shape ---
  INVALID_PARAMETER: [40000, 3, 'Invalid parameter.'],
  MALFORMED_JSON: [40001, 3, 'The body is not valid JSON.'],
  MALFORMED_REQUEST: [40002, 3, 'The request is not valid HTTP/1.1.'],
  PAYLOAD_TOO_LARGE: [41300, 3, 'The request body is too large.'],
  UNSUPPORTED_MEDIA_TYPE: [41500, 3, 'Unsupported content type; send application/json.'],
  REQUEST_TIMEOUT: [40800, 4, 'The request did not arrive in time.'],
  EXPECTATION_FAILED: [41700, 3, 'Unsupported Expect header; only 100-continue is supported.'],
  HEADERS_TOO_LARGE: [43100, 3, 'The request headers are too large.'],
  NOT_FOUND: [40400, 5, 'Not found.'],
  METHOD_NOT_ALLOWED: [40500, 12, 'Method not allowed.'],
  CONFLICT: [40900, 6, 'Conflict with the current state.'],

  // --- signatures and access (5.1, 5.2, 5.4) ---
  BAD_SIGNATURE: [40101, 16, 'The signature does not match.'],
  STALE_TIMESTAMP: [40102, 16, 'The timestamp is outside the permitted window.'],
  NONCE_REUSED: [40104, 16, 'The nonce has already been used.'],
  UNKNOWN_CLIENT: [40105, 16, 'Unknown or disabled client id.'],
  ADMIN_UNAUTHORIZED: [40106, 16, 'Missing or invalid admin bearer token.'],
  METRICS_UNAUTHORIZED: [40160, 16, 'Missing or invalid metrics bearer token.'],
  IP_NOT_ALLOWED: [40301, 7, 'The caller IP is not on the allow-list of this app.'],
  INVALID_LOGIN_CREDENTIAL: [40107, 16, 'The login credential is not valid.'],
  ACCOUNT_BANNED: [40302, 7, 'This account is banned.'],

  // --- operator accounts (docs/operators.md) ---
  OPERATOR_LOGIN_FAILED: [40108, 16, 'The name, password or second factor is not right.'],
  OPERATOR_FORBIDDEN: [40303, 7, "The operator's role does not allow this."],
  PORTAL_FORBIDDEN: [40319, 7, "The studio developer's access to this app does not allow this."],
  CSRF_REFUSED: [40304, 7, "A request that changes something needs its session's X-CSRF-Token (console or payment page)."],
  PORTAL_UNAUTHORIZED: [40110, 16, 'Sign in to the studio portal: no portal session, or it has ended.'],
  PORTAL_LOGIN_FAILED: [40111, 16, 'The name, password or second factor is not right.'],
  OPERATOR_LOCKED: [42902, 8, 'Too many failed sign-ins; this operator is locked for a while.'],

  // --- orders (2.4-2.7, 4.5, 4.10) ---
  UNKNOWN_PRODUCT: [40010, 3, 'Unknown or unavailable product.'],
  ROLE_NOT_OWNED: [40310, 7, 'This role does not belong to this player.'],
  SANDBOX_DISABLED: [40311, 7, 'The sandbox payment channel is not enabled.'],
  ORDER_STATE: [40910, 9, 'The order cannot change to this status.'],
  OUT_TRX_NO_CONFLICT: [40911, 6, 'This order id was already used for a different order.'],
  REFUND_NOT_ALLOWED: [40912, 9, 'This order cannot be refunded.'],
  PRE_ORDER_BLOCKED: [40920, 9, 'The game refused this order.'],
  SUPPLEMENT_PENDING: [40945, 9, 'Complete your pending supplement order first, then buy again.'],
  STORE_PURCHASE_REFUSED: [40030, 3, 'The store did not confirm this purchase for this order.'],
  STORE_MESSAGE_REFUSED: [40031, 3, 'This store notification failed verification.'],
  STORE_PUSH_UNAUTHENTICATED: [40131, 16, 'The push carries no token of the configured audience and service account.'],
  STORE_TRANSACTION_USED: [40930, 6, 'This store transaction or purchase token already paid an order.'],
  STORE_UNAVAILABLE: [50230, 14, 'The store could not be reached; retry later.'],
  GAME_UNREACHABLE: [50201, 14, 'The game server could not be reached; retry later.'],
  ROLE_QUERY_FAILED: [50202, 14, 'The game could not confirm the role; retry later.'],

  // --- the web payment page (web-pay/, docs/web-payment.md) ---
  PAY_SESSION_REQUIRED: [40109, 16, 'The payment page session is missing or has expired; open the page again.'],
  PAYMENT_BLOCKED: [40333, 7, 'Payment is blocked for this role.'],
  ROLE_NOT_FOUND: [40410, 5, 'The game does not know this role on this server.'],
  NO_ROLE_ON_SERVER: [40411, 5, 'You have no role on this server.'],
  ROLE_LIST_REFUSED: [40921, 9, 'The game refused the role list.'],

  // --- web payment providers (payment-providers/, docs/web-payment.md) ---
  PAYMENT_METHOD_UNAVAILABLE: [40050, 3, 'This payment method is not offered for this app and region.'],
  PROVIDER_NOTIFICATION_REFUSED: [40051, 3, 'This payment provider notification failed verification.'],
  PROVIDER_PAYMENT_REFUSED: [40950, 9, 'This payment does not pay the order it names; nothing was paid.'],
  PROVIDER_REFUND_REFUSED: [40956, 9, 'The payment provider refused this refund; the order stays paid.'],
  REFUND_EXCEEDS_PAID: [40957, 9, 'The refund is more than what remains unrefunded of the order.'],
  PROVIDER_UNAVAILABLE: [50250, 14, 'The payment provider could not be reached; retry later.'],

  // --- load and faults ---
  RATE_LIMITED: [42900, 8, 'Too many requests.'],
  INTERNAL: [50000, 13, 'Internal error.'],
  UNAVAILABLE: [50300, 14, 'Service unavailable, retry later.'],

  // --- reporting (4.1, 4.2) ---
  REPORT_LIMIT_REACHED: [42901, 8, 'The reporter has reached a report limit.'],
  UPLOAD_URL_EXPIRED: [40330, 7, 'The signed upload or download URL has expired.'],
} as const satisfies Record<string, readonly [code: number, grpc: number, msg: string]>;

export type ErrorReason = keyof typeof table;

/** One entry of the registry, with its HTTP status derived from the code. */
export interface ErrorCode {
  readonly code: number;
  readonly http: number;
  readonly grpc: number;
  readonly msg: string;
}

export const ErrorCodes = Object.fromEntries(
  Object.entries(table).map(([reason, [code, grpc, msg]]) => [
    reason,
    { code, http: Math.floor(code / 100), grpc, msg },
  ]),
) as Record<ErrorReason, ErrorCode>;

/** google.rpc.Code names, for the rpcStatus `details`. */
export const GrpcCodeNames: Record<number, string> = {
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  5: 'NOT_FOUND',
  6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  12: 'UNIMPLEMENTED',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
};
