/**
 * The one error vocabulary of the service. Every error a route can answer is
 * listed here once, with:
 *  - `code`: the numeric code of the 2.3 envelope (account, order and admin routes).
 *    Codes from spec section 7 keep their numbers; ours follow the same scheme.
 *  - `http`: the HTTP status. The rule is that it is the first three digits of
 *    `code` (40300 -> 403), so a client can tell one from the other.
 *  - `grpc`: the google.rpc.Code of the rpcStatus envelope (reporting routes),
 *    with the HTTP status grpc-gateway gives that code.
 *  - `msg`: the player/developer-facing message.
 * docs/errors.md documents every entry; a test keeps the two in step.
 */
export const ErrorCodes = {
  // --- spec section 7 ---
  ILLEGAL_ACCESS_TOKEN: { code: 40300, http: 403, grpc: 16, msg: 'Illegal access token.' },
  ILLEGAL_USER_ID: { code: 40103, http: 401, grpc: 5, msg: 'Illegal user id.' },
  EMAIL_NOT_VERIFIED: { code: 40021, http: 400, grpc: 9, msg: 'The bound email of this account is not verified.' },
  EMAIL_BOUND_TO_LOGIN_TYPE: {
    code: 40902,
    http: 409,
    grpc: 6,
    msg: 'The email of this login is already bound to this login type.',
  },
  EMAIL_BOUND_TO_SEVERAL_ACCOUNTS: {
    code: 40901,
    http: 409,
    grpc: 6,
    msg: 'Several accounts are bound to this email; it cannot be bound automatically.',
  },

  // --- request shape ---
  INVALID_PARAMETER: { code: 40000, http: 400, grpc: 3, msg: 'Invalid parameter.' },
  MALFORMED_JSON: { code: 40001, http: 400, grpc: 3, msg: 'The body is not valid JSON.' },
  MALFORMED_REQUEST: { code: 40002, http: 400, grpc: 3, msg: 'The request is not valid HTTP/1.1.' },
  PAYLOAD_TOO_LARGE: { code: 41300, http: 413, grpc: 3, msg: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { code: 41500, http: 415, grpc: 3, msg: 'Unsupported content type; send application/json.' },
  REQUEST_TIMEOUT: { code: 40800, http: 408, grpc: 4, msg: 'The request did not arrive in time.' },
  EXPECTATION_FAILED: {
    code: 41700,
    http: 417,
    grpc: 3,
    msg: 'Unsupported Expect header; only 100-continue is supported.',
  },
  HEADERS_TOO_LARGE: { code: 43100, http: 431, grpc: 3, msg: 'The request headers are too large.' },
  NOT_FOUND: { code: 40400, http: 404, grpc: 5, msg: 'Not found.' },
  METHOD_NOT_ALLOWED: { code: 40500, http: 405, grpc: 12, msg: 'Method not allowed.' },
  CONFLICT: { code: 40900, http: 409, grpc: 6, msg: 'Conflict with the current state.' },

  // --- signatures and access (5.1, 5.2, 5.4) ---
  BAD_SIGNATURE: { code: 40101, http: 401, grpc: 16, msg: 'The signature does not match.' },
  STALE_TIMESTAMP: { code: 40102, http: 401, grpc: 16, msg: 'The timestamp is outside the permitted window.' },
  NONCE_REUSED: { code: 40104, http: 401, grpc: 16, msg: 'The nonce has already been used.' },
  UNKNOWN_CLIENT: { code: 40105, http: 401, grpc: 16, msg: 'Unknown or disabled client id.' },
  ADMIN_UNAUTHORIZED: { code: 40106, http: 401, grpc: 16, msg: 'Missing or invalid admin bearer token.' },
  METRICS_UNAUTHORIZED: { code: 40160, http: 401, grpc: 16, msg: 'Missing or invalid metrics bearer token.' },
  IP_NOT_ALLOWED: { code: 40301, http: 403, grpc: 7, msg: 'The caller IP is not on the allow-list of this app.' },
  INVALID_LOGIN_CREDENTIAL: { code: 40107, http: 401, grpc: 16, msg: 'The login credential is not valid.' },
  ACCOUNT_BANNED: { code: 40302, http: 403, grpc: 7, msg: 'This account is banned.' },

  // --- operator accounts (docs/operators.md) ---
  OPERATOR_LOGIN_FAILED: {
    code: 40108,
    http: 401,
    grpc: 16,
    msg: 'The name, password or second factor is not right.',
  },
  OPERATOR_FORBIDDEN: { code: 40303, http: 403, grpc: 7, msg: "The operator's role does not allow this." },
  PORTAL_FORBIDDEN: {
    code: 40319,
    http: 403,
    grpc: 7,
    msg: "The studio developer's access to this app does not allow this.",
  },
  CSRF_REFUSED: {
    code: 40304,
    http: 403,
    grpc: 7,
    msg: "A request that changes something needs its session's X-CSRF-Token (console or payment page).",
  },
  PORTAL_UNAUTHORIZED: {
    code: 40110,
    http: 401,
    grpc: 16,
    msg: 'Sign in to the studio portal: no portal session, or it has ended.',
  },
  PORTAL_LOGIN_FAILED: {
    code: 40111,
    http: 401,
    grpc: 16,
    msg: 'The name, password or second factor is not right.',
  },
  OPERATOR_LOCKED: {
    code: 42902,
    http: 429,
    grpc: 8,
    msg: 'Too many failed sign-ins; this operator is locked for a while.',
  },

  // --- orders (2.4-2.7, 4.5, 4.10) ---
  UNKNOWN_PRODUCT: { code: 40010, http: 400, grpc: 3, msg: 'Unknown or unavailable product.' },
  ROLE_NOT_OWNED: { code: 40310, http: 403, grpc: 7, msg: 'This role does not belong to this player.' },
  SANDBOX_DISABLED: { code: 40311, http: 403, grpc: 7, msg: 'The sandbox payment channel is not enabled.' },
  ORDER_STATE: { code: 40910, http: 409, grpc: 9, msg: 'The order cannot change to this status.' },
  OUT_TRX_NO_CONFLICT: {
    code: 40911,
    http: 409,
    grpc: 6,
    msg: 'This order id was already used for a different order.',
  },
  REFUND_NOT_ALLOWED: { code: 40912, http: 409, grpc: 9, msg: 'This order cannot be refunded.' },
  PRE_ORDER_BLOCKED: { code: 40920, http: 409, grpc: 9, msg: 'The game refused this order.' },
  SUPPLEMENT_PENDING: {
    code: 40945,
    http: 409,
    grpc: 9,
    msg: 'Complete your pending supplement order first, then buy again.',
  },
  STORE_PURCHASE_REFUSED: {
    code: 40030,
    http: 400,
    grpc: 3,
    msg: 'The store did not confirm this purchase for this order.',
  },
  STORE_MESSAGE_REFUSED: {
    code: 40031,
    http: 400,
    grpc: 3,
    msg: 'This store notification failed verification.',
  },
  STORE_PUSH_UNAUTHENTICATED: {
    code: 40131,
    http: 401,
    grpc: 16,
    msg: 'The push carries no token of the configured audience and service account.',
  },
  STORE_TRANSACTION_USED: {
    code: 40930,
    http: 409,
    grpc: 6,
    msg: 'This store transaction or purchase token already paid an order.',
  },
  STORE_UNAVAILABLE: { code: 50230, http: 502, grpc: 14, msg: 'The store could not be reached; retry later.' },
  GAME_UNREACHABLE: { code: 50201, http: 502, grpc: 14, msg: 'The game server could not be reached; retry later.' },
  ROLE_QUERY_FAILED: { code: 50202, http: 502, grpc: 14, msg: 'The game could not confirm the role; retry later.' },

  // --- the web payment page (web-pay/, docs/web-payment.md) ---
  PAY_SESSION_REQUIRED: {
    code: 40109,
    http: 401,
    grpc: 16,
    msg: 'The payment page session is missing or has expired; open the page again.',
  },
  PAYMENT_BLOCKED: { code: 40333, http: 403, grpc: 7, msg: 'Payment is blocked for this role.' },
  ROLE_NOT_FOUND: { code: 40410, http: 404, grpc: 5, msg: 'The game does not know this role on this server.' },
  NO_ROLE_ON_SERVER: { code: 40411, http: 404, grpc: 5, msg: 'You have no role on this server.' },
  ROLE_LIST_REFUSED: { code: 40921, http: 409, grpc: 9, msg: 'The game refused the role list.' },

  // --- web payment providers (payment-providers/, docs/web-payment.md) ---
  PAYMENT_METHOD_UNAVAILABLE: {
    code: 40050,
    http: 400,
    grpc: 3,
    msg: 'This payment method is not offered for this app and region.',
  },
  PROVIDER_NOTIFICATION_REFUSED: {
    code: 40051,
    http: 400,
    grpc: 3,
    msg: 'This payment provider notification failed verification.',
  },
  PROVIDER_PAYMENT_REFUSED: {
    code: 40950,
    http: 409,
    grpc: 9,
    msg: 'This payment does not pay the order it names; nothing was paid.',
  },
  PROVIDER_REFUND_REFUSED: {
    code: 40956,
    http: 409,
    grpc: 9,
    msg: 'The payment provider refused this refund; the order stays paid.',
  },
  REFUND_EXCEEDS_PAID: {
    code: 40957,
    http: 409,
    grpc: 9,
    msg: 'The refund is more than what remains unrefunded of the order.',
  },
  PROVIDER_UNAVAILABLE: {
    code: 50250,
    http: 502,
    grpc: 14,
    msg: 'The payment provider could not be reached; retry later.',
  },

  // --- load and faults ---
  RATE_LIMITED: { code: 42900, http: 429, grpc: 8, msg: 'Too many requests.' },
  INTERNAL: { code: 50000, http: 500, grpc: 13, msg: 'Internal error.' },
  UNAVAILABLE: { code: 50300, http: 503, grpc: 14, msg: 'Service unavailable, retry later.' },

  // --- reporting (4.1, 4.2) ---
  REPORT_LIMIT_REACHED: { code: 42901, http: 429, grpc: 8, msg: 'The reporter has reached a report limit.' },
  UPLOAD_URL_EXPIRED: { code: 40330, http: 403, grpc: 7, msg: 'The signed upload or download URL has expired.' },
} as const satisfies Record<string, { code: number; http: number; grpc: number; msg: string }>;

export type ErrorReason = keyof typeof ErrorCodes;

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
